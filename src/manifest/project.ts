/**
 * Pulumi's project layout. `Pulumi.yaml` holds the project (`name`, `runtime`, `description`,
 * `config` declarations, `main`) and, when its program folder (the project's folder, or `main:`)
 * holds no `Main.yaml` or `Main.json`, the program as well. A program in a Main file takes its
 * project from the Pulumi.yaml that names its folder; the two merge at one place
 * (`mergeProject`), each declaration keeping the file and position it is written at. Pulumi reads
 * Main.yaml and ignores a program also written in Pulumi.yaml; plumb refuses the pair, naming both.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { isAlias, isMap, isScalar, type Node, type Pair } from 'yaml';
import { type Diagnostic, warningAt } from '../kernel/diagnostics.js';
import { UserError } from '../kernel/errors.js';
import { closestName } from '../kernel/did-you-mean.js';
import { projectNameProblem } from '../kernel/names.js';
import type { ConfigEntry, Manifest, Pos } from './ast.js';
import { readConfigSection } from './config-decl.js';
import { expressionReader, keyText } from './expressions.js';
import { decodeUtf8, readYaml } from './yaml-source.js';

/** The project file's name, as Pulumi spells it. */
export const PROJECT_FILE = 'Pulumi.yaml';
/** plumb's own manifest name, used when no file is given. */
export const DEFAULT_MANIFEST = 'plumb.yaml';
/** Program files of a Pulumi project's program folder, in the order Pulumi looks for them. */
const MAIN_FILES = ['Main.json', 'Main.yaml'];
/** Top-level keys that make a file a program (rather than only a project). */
const PROGRAM_KEYS = ['resources', 'variables', 'outputs', 'configuration'];
/** Keys of a project file read here; `runtime`, `template`, `author`, `website`, `license` describe the project and change nothing. */
const PROJECT_KEYS = ['name', 'runtime', 'description', 'main', 'config', 'template', 'author', 'website', 'license'];
/** Pulumi project keys plumb refuses, with what to do instead. */
export const REFUSED_PROJECT_KEYS: Record<string, string> = {
  stackConfigDir: 'keep the stack files (Pulumi.<stack>.yaml) beside Pulumi.yaml',
  backend: 'plumb keeps state in .plumb beside the project, or where --state or PLUMB_STATE says (a folder or postgres://)',
  options: "plumb's commands take their options as flags",
  plugins: "plumb's providers are built in",
  packages: "plumb's providers are built in",
};

/** A project file's declarations, read for a program kept in another file. */
export interface ProjectDecls {
  file: string;
  text: string;
  name?: string;
  namePos?: Pos;
  description?: string;
  config: Record<string, ConfigEntry>;
  /** The program folder `main:` names, resolved; the project's folder without one. */
  programDir: string;
  mainPos?: Pos;
  /** Program keys written in the project file, with where. */
  programKeys: Array<{ key: string; pos: Pos }>;
  diagnostics: Diagnostic[];
}

/** A program to load and, when its project is declared in another file, that project. */
export interface Layout {
  program: string;
  project?: ProjectDecls;
}

/**
 * The program a command works on: the file given (a Pulumi.yaml or Main file means its project),
 * a folder given, or the current folder's plumb.yaml or Pulumi project. Two candidates in one
 * folder are refused, naming both and how to choose.
 */
export function findProgram(given: string | undefined): Layout {
  if (given === undefined) return programInFolder('.', true);
  if (!existsSync(given)) throw new UserError(`manifest ${given} not found`, 'pass the manifest path as the first argument or with -f');
  if (statSync(given).isDirectory()) return programInFolder(given, false);
  const name = basename(given);
  if (name === PROJECT_FILE) return pulumiLayout(given);
  if (MAIN_FILES.includes(name)) {
    const project = projectFor(given);
    if (project) return { program: pulumiLayout(project.file).program, project };
  }
  return { program: given };
}

/** The program of a folder: plumb.yaml or a Pulumi project, not both. */
function programInFolder(dir: string, current: boolean): Layout {
  const plumb = join(dir, DEFAULT_MANIFEST);
  const pulumi = join(dir, PROJECT_FILE);
  if (existsSync(plumb) && existsSync(pulumi)) {
    throw new UserError(`${plumb} and ${pulumi} are both programs of ${current ? 'this folder' : dir}`, `choose one with -f (-f ${plumb} or -f ${pulumi}), or remove the other`);
  }
  if (existsSync(pulumi)) return pulumiLayout(pulumi);
  if (existsSync(plumb)) return { program: plumb };
  if (current)
    throw new UserError(`manifest ${DEFAULT_MANIFEST} not found`, `pass the manifest path as the first argument or with -f, or run in a folder holding ${DEFAULT_MANIFEST} or ${PROJECT_FILE}`);
  throw new UserError(`${dir} is a folder, not a manifest`, `pass the manifest file, e.g. ${plumb}, or a folder holding ${DEFAULT_MANIFEST} or ${PROJECT_FILE}`);
}

/** The program of the project declared in `file` (a Pulumi.yaml): its Main file, or the project file itself. */
function pulumiLayout(file: string): Layout {
  const project = readProject(file);
  const mains = MAIN_FILES.map((name) => join(project.programDir, name)).filter((f) => existsSync(f));
  if (mains.length > 1) throw new UserError(`${mains.join(' and ')} are both programs of the project ${file}`, 'keep one of them');
  const [main] = mains;
  if (!main) {
    if (project.mainPos) {
      const where = `${file}:${project.mainPos.line}:${project.mainPos.column}`;
      throw new UserError(`${where}: main: names ${project.programDir}, which holds no ${MAIN_FILES.join(' or ')}`, 'write the program there, or remove main: to keep it in Pulumi.yaml');
    }
    return { program: file };
  }
  if (project.programKeys.length) {
    const { key, pos } = project.programKeys[0];
    throw new UserError(
      `${file}:${pos.line}:${pos.column}: ${file} holds a program (${key}:), and so does ${main}`,
      `Pulumi would run ${basename(main)} and ignore the program in ${PROJECT_FILE}: keep the program in one of them (plumb refuses to guess)`,
    );
  }
  return { program: main, project };
}

/** The project declared for a program kept in a Main file: the Pulumi.yaml of its folder or of a folder above whose main: names it. */
export function projectFor(program: string): ProjectDecls | undefined {
  if (!MAIN_FILES.includes(basename(program))) return undefined;
  const programDir = dirname(resolve(program));
  for (let dir = programDir; ; dir = dirname(dir)) {
    const file = join(dir, PROJECT_FILE);
    if (existsSync(file)) {
      const project = readProject(relativeTo(file));
      return resolve(project.programDir) === programDir ? project : undefined;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** `file` relative to the working folder when it is under it (as messages show files). */
function relativeTo(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel.startsWith('..') ? file : rel;
}

/** Reads a project file's project keys; program keys are noted, not read. Problems are kept, not thrown. */
export function readProject(file: string): ProjectDecls {
  const decoded = decodeUtf8(readFileSync(file), file);
  const project: ProjectDecls = { file, text: decoded.text, config: {}, programDir: dirname(file), programKeys: [], diagnostics: decoded.diagnostics };
  if (project.diagnostics.length) return project;
  const source = readYaml(decoded.text, file);
  project.diagnostics.push(...source.diagnostics);
  if (source.diagnostics.length) return project;
  const { at } = source;
  const error = (pos: Pos, summary: string, detail?: string) => project.diagnostics.push({ severity: 'error', summary, detail, pos: { file, ...pos } });
  const root = source.doc.contents;
  if (!isMap(root)) {
    error(at(root as Node), `${PROJECT_FILE} must be a mapping with name, runtime and config`);
    return project;
  }
  const toExpr = expressionReader({ at, error, functions: [], target: source.target, invoked: new Set() });
  const deref = (node: unknown) => (isAlias(node) ? source.target(node) : ((node as Node | null | undefined) ?? null));
  for (const pair of root.items as Pair[]) {
    const key = keyText(pair);
    const value = (pair.value ?? null) as Node | null;
    const keyPos = at(pair.key as Node);
    if (PROGRAM_KEYS.includes(key)) project.programKeys.push({ key, pos: keyPos });
    else if (key === 'config') readConfigSection(value, { at, error, toExpr, deref }, project.config, key);
    else if (key === 'name' || key === 'description' || key === 'main') readText(project, key, value, at(value ?? (pair.key as Node)), error);
    else if (key === 'runtime') checkRuntime(value, at, error);
    else if (REFUSED_PROJECT_KEYS[key]) error(keyPos, `"${key}" in ${PROJECT_FILE} is not supported`, REFUSED_PROJECT_KEYS[key]);
    else if (!PROJECT_KEYS.includes(key)) {
      const hint = closestName(key, [...PROJECT_KEYS, ...PROGRAM_KEYS]);
      error(keyPos, `unknown key "${key}" in ${PROJECT_FILE}`, `project keys: ${PROJECT_KEYS.join(', ')}${hint ? `; did you mean "${hint}"?` : ''}`);
    }
  }
  checkName(project, error);
  for (const entry of Object.values(project.config)) markFile(entry, file);
  return project;
}

/** A project is named (Pulumi requires it), with a name that can name its state. */
function checkName(project: ProjectDecls, error: (pos: Pos, summary: string, detail?: string) => void): void {
  if (project.name === undefined) {
    if (!project.diagnostics.some((d) => d.summary === 'name must be a string'))
      error({ line: 1, column: 1 }, `${PROJECT_FILE} has no name:`, 'a Pulumi project is named: name: <project>, which its state is kept under');
    return;
  }
  const problem = projectNameProblem(project.name, true);
  if (problem) error(project.namePos!, problem.summary, problem.detail);
}

/** Reads `name`, `description` or `main` (a folder, relative to the project's). */
function readText(project: ProjectDecls, key: 'name' | 'description' | 'main', value: Node | null, pos: Pos, error: (pos: Pos, summary: string) => void): void {
  if (!isScalar(value) || typeof value.value !== 'string') {
    error(pos, `${key} must be a string`);
    return;
  }
  if (key === 'name') [project.name, project.namePos] = [value.value, pos];
  else if (key === 'description') project.description = value.value;
  else [project.programDir, project.mainPos] = [join(dirname(project.file), value.value), pos];
}

/** plumb runs Pulumi YAML programs: `runtime: yaml` (a name, or `name:` with no options). */
export function checkRuntime(value: Node | null, at: (node: Node) => Pos, error: (pos: Pos, summary: string, detail?: string) => void): void {
  const name = isMap(value) ? value.get('name', true) : value;
  if (!isScalar(name) || name.value !== 'yaml') {
    error(at((name ?? value) as Node), `runtime ${isScalar(name) ? `"${String(name.value)}"` : ''} is not one plumb runs`.replace('  ', ' '), 'plumb runs Pulumi YAML programs: runtime: yaml');
  } else if (isMap(value) && value.has('options')) {
    error(at(value.get('options', true) as Node), 'runtime options are not supported', 'a YAML program is read as it is written; remove options:');
  }
}

function markFile(entry: ConfigEntry, file: string): void {
  entry.file = file;
  if (entry.decl) entry.decl.file = file;
}

/**
 * Merges a project file's declarations into the program read from another file: the project's
 * name, description and config declarations, each at its own file and position; a config key
 * declared in both is refused. Returns the problems found, the project file's own among them.
 */
export function mergeProject(manifest: Manifest, project: ProjectDecls, namePos?: Pos): Diagnostic[] {
  const diagnostics = [...project.diagnostics];
  if (project.name !== undefined) {
    if (manifest.name !== 'unnamed' && manifest.name !== project.name)
      manifest.warnings.push(
        warningAt(namePos && { file: manifest.file, ...namePos }, `${manifest.file} is named "${manifest.name}", but its project is "${project.name}" (${project.file}), which plumb goes by`),
      );
    manifest.name = project.name;
  } else if (manifest.name === 'unnamed') {
    // Unnamed, the project goes by its file's name, wherever the program is kept (as state-store does).
    manifest.project = basename(project.file, extname(project.file));
  }
  manifest.description = project.description ?? manifest.description;
  for (const [key, entry] of Object.entries(project.config)) {
    const own = manifest.config[key];
    if (own) {
      diagnostics.push({
        severity: 'error',
        summary: `config ${key} is declared in both ${manifest.file} and ${project.file}:${entry.pos.line}:${entry.pos.column}`,
        detail: 'declare it once',
        pos: { file: manifest.file, ...own.pos },
      });
    } else manifest.config[key] = entry;
  }
  manifest.projectFile = project.file;
  // A saved plan is bound to both files: a default changed in the project changes the plan.
  manifest.hash = createHash('sha256').update(manifest.hash).update(project.text).digest('hex');
  return diagnostics;
}
