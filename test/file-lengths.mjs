// The second half of `npm run lint:deps`: no file in app/ or server/ over 400 lines (ADR 055), so that a file stays
// one thing a reader can hold at once. `node test/file-lengths.mjs [root]` checks the tree at root (by default here).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const MAX_LINES = 400;
export const FOLDERS = ["app", "server"];

/**
 * The files allowed over the limit, each with its reason; an entry goes once its file is split. There is none: the
 * last, server/auth/local-auth.ts, went with the auth server's split (ADR 062). FILE_LENGTH_EXCEPTIONS (a JSON object
 * of the same shape) stands in for the list, so that test/unit/file-lengths.test.ts can show how an entry works
 * while the list is empty.
 */
export const EXCEPTIONS = process.env.FILE_LENGTH_EXCEPTIONS ? JSON.parse(process.env.FILE_LENGTH_EXCEPTIONS) : {};

/** Lines as `wc -l` counts them for a file that ends with a newline; a last line without one counts too. */
export function countLines(text) {
  if (text.length === 0) return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

/** Every text file under the folders, with its line count, by its path from root with forward slashes. */
export function measure(root) {
  const found = [];
  const visit = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (entry.isFile()) {
        const bytes = fs.readFileSync(file);
        // Images and other binaries have no lines to count.
        if (bytes.subarray(0, 8000).includes(0)) continue;
        found.push({ file: path.relative(root, file).split(path.sep).join("/"), lines: countLines(bytes.toString("utf8")) });
      }
    }
  };
  for (const folder of FOLDERS) if (fs.existsSync(path.join(root, folder))) visit(path.join(root, folder));
  return found.sort((a, b) => (a.file < b.file ? -1 : 1));
}

/** What is over the limit and not excepted, and the exceptions no longer needed. */
export function check(root) {
  const files = measure(root);
  const tooLong = files.filter(({ file, lines }) => lines > MAX_LINES && !(file in EXCEPTIONS));
  const needless = Object.keys(EXCEPTIONS).filter((excepted) => !files.some(({ file, lines }) => file === excepted && lines > MAX_LINES));
  return { checked: files.length, tooLong, needless };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { checked, tooLong, needless } = check(path.resolve(process.argv[2] ?? "."));
  for (const excepted of needless) console.log(`note: ${excepted} is within ${MAX_LINES} lines now: take it out of EXCEPTIONS in test/file-lengths.mjs`);
  if (tooLong.length === 0) {
    console.log(`✔ no file over ${MAX_LINES} lines (${checked} files in ${FOLDERS.join("/, ")}/ checked)`);
  } else {
    for (const { file, lines } of tooLong) console.error(`✘ ${file}: ${lines} lines, over ${MAX_LINES}: split it by what its parts are about (ADR 055)`);
    console.error(`\n✘ ${tooLong.length} file(s) over ${MAX_LINES} lines`);
    process.exit(1);
  }
}
