// The third part of `npm run lint:deps`: the repository explains itself. No file points at what a clone does not
// have: the team's own design documents (their section marks, their folder) or its tracker's issue numbers; a rule is
// cited by its docs/ anchor (docs/product.md) or its ADR, an upstream bug by its URL. Such references crept back twice
// after they were replaced; this keeps them out.
// `node test/self-contained.mjs [root]` checks the tree at root (by default here).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const PLACES = ["app", "server", "test", "migrations", "docs", "public", ".ci", "README.md", "package.json", "vite.config.ts", "playwright.config.ts"];

/** What points outside; written in pieces so that this file does not match itself. */
export const OUTSIDE = [
  { pattern: new RegExp(["SPEC", "PRODUCT"].map((name) => `\\b${name} §`).join("|")), says: "a section of the team's design documents: cite docs/product.md#… instead" },
  { pattern: new RegExp(`\\.\\./${"shared"}/|\\b${"CONVENTIONS"}\\.md\\b`), says: "the team's folder outside the repository: cite docs/ instead" },
  { pattern: new RegExp(`\\b[Ii]ssue${" "}#?\\d+\\b`), says: "the tracker's issue number: cite the ADR or docs/ section, or an upstream issue by its URL" },
];

/** Every text file under the places, by its path from root with forward slashes (node_modules and build left out). */
function files(root) {
  const found = [];
  const visit = (file) => {
    const stat = fs.statSync(file);
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(file)) if (entry !== "node_modules" && entry !== "build") visit(path.join(file, entry));
    } else if (stat.isFile()) {
      const bytes = fs.readFileSync(file);
      if (!bytes.subarray(0, 8000).includes(0)) found.push({ file: path.relative(root, file).split(path.sep).join("/"), text: bytes.toString("utf8") });
    }
  };
  for (const place of PLACES) if (fs.existsSync(path.join(root, place))) visit(path.join(root, place));
  return found;
}

/** Each line that points outside: its file, line number, text and what it points at. */
export function check(root) {
  const found = [];
  const all = files(root);
  for (const { file, text } of all) {
    for (const [index, line] of text.split("\n").entries()) {
      for (const { pattern, says } of OUTSIDE) if (pattern.test(line)) found.push({ file, line: index + 1, text: line.trim(), says });
    }
  }
  return { checked: all.length, found };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { checked, found } = check(path.resolve(process.argv[2] ?? "."));
  if (found.length === 0) {
    console.log(`✔ nothing points outside the repository (${checked} files checked)`);
  } else {
    for (const { file, line, text, says } of found) console.error(`✘ ${file}:${line}: ${says}\n    ${text.slice(0, 160)}`);
    console.error(`\n✘ ${found.length} line(s) point outside the repository`);
    process.exit(1);
  }
}
