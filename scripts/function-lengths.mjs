// Reports the longest functions in src-* by their own lines: a function's lines less those of the
// functions nested in it, so a factory counts by what it does itself (docs/architecture.md#rules-for-every-runtime).
// Usage: npm run code:functions [-- --top N] [-- --over N]
// Exits 1 with --over N when any function's own lines exceed N.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOTS = ['src-contract', 'src-server', 'src-web', 'src-main', 'src-preload'];
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(name);
  return index === -1 ? fallback : Number(args[index + 1]);
};
const top = option('--top', 20);
const over = option('--over', null);

function* sourceFiles(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

const isFunction = (node) =>
  ts.isFunctionDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node);

/** A readable name: the declaration's own, or the variable, property or call it is given to. */
function nameOf(node, source) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  if (ts.isCallExpression(parent)) return `${parent.expression.getText(source).slice(0, 40)}(…)`;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return '(anonymous)';
}

const found = [];
for (const root of ROOTS) {
  for (const file of sourceFiles(root)) {
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(
      file,
      text,
      ts.ScriptTarget.Latest,
      true,
      file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
    );
    const lineOf = (position) => source.getLineAndCharacterOfPosition(position).line;
    const visit = (node) => {
      if (isFunction(node) && node.body) {
        const lines = lineOf(node.body.getEnd()) - lineOf(node.getStart(source)) + 1;
        let nested = 0;
        const inner = (child) => {
          if (isFunction(child) && child.body) nested += lineOf(child.body.getEnd()) - lineOf(child.getStart(source)) + 1;
          else ts.forEachChild(child, inner);
        };
        ts.forEachChild(node.body, inner);
        found.push({
          own: lines - nested,
          lines,
          name: nameOf(node, source),
          where: `${relative('.', file)}:${lineOf(node.getStart(source)) + 1}`,
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
}

found.sort((a, b) => b.own - a.own);
const shown = over === null ? found.slice(0, top) : found.filter((entry) => entry.own > over);
for (const entry of shown)
  console.log(`${String(entry.own).padStart(4)} own (${String(entry.lines).padStart(4)} in all)  ${entry.name}  ${entry.where}`);
console.log(
  `${found.length} functions; the longest has ${found[0]?.own ?? 0} lines of its own; ${found.filter((entry) => entry.own > 80).length} over 80.`,
);
if (over !== null && shown.length > 0) process.exit(1);
