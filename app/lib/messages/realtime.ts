export const connectTimeout = "Connection timeout";
