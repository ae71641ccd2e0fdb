import { createContext, useContext } from "react";

const NonceContext = createContext("");

/** Provides the response's CSP nonce to the document (set in app/entry.server.tsx). */
export const NonceProvider = NonceContext.Provider;

/** The CSP nonce for inline scripts; empty in the browser, which hides it after load. */
export const useNonce = () => useContext(NonceContext);
