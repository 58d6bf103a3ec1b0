import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Reader, Tracker } from 'ts-edifact';
import { ensureDebianPackage } from './debian-peers.ts';

/**
 * Checks EDIFACT interchanges against the segment tables of the UN/EDIFACT directory their UNH names
 * (test/fixtures/edifact: message structures and segment/composite definitions written from the published
 * D.96A/D.97A directories). The segments are read by Debian's Perl module Business::Edifact::Interchange
 * (edifact-segments.pl), an implementation independent of the `edifact` package the portal uses and of
 * ts-edifact (a port of the same node-edifact code), which reads every message a second time for comparison.
 * The structure walk over the message's segment table is ts-edifact's Tracker; the element rules (status,
 * count, repetition, format) are checked here from the same tables.
 */

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/edifact');

interface Item {
  id: string;
  format: string | null;
  mandatory: boolean;
}
interface StructEntry {
  content: string | StructEntry[];
  mandatory: boolean;
  repetition: number;
  name?: string;
}
type Directory = Map<string, Item[]>;

const isComposite = (id: string) => /^[CS]\d{3}$/.test(id);

function readLines(file: string) {
  return fs
    .readFileSync(path.join(FIXTURES, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.trimStart().startsWith('#'));
}

/** `TAG: item | item` lines of a directory's segments and composites. */
export function loadDirectory(version: string): Directory {
  const directory: Directory = new Map();
  for (const line of readLines(`${version}.segments.txt`)) {
    const [tag, rest] = line.split(':').map((s) => s.trim());
    directory.set(
      tag,
      rest.split('|').map((item) => {
        const parts = item.trim().split(/\s+/);
        return parts.length === 2
          ? { id: parts[0], format: null, mandatory: parts[1] === 'M' }
          : { id: parts[0], format: parts[1], mandatory: parts[2] === 'M' };
      }),
    );
  }
  return directory;
}

/** The indented segment table of a message as ts-edifact's structure (nested groups). */
export function loadStructure(version: string, message: string): StructEntry[] {
  const root: StructEntry[] = [];
  const stack: { indent: number; entries: StructEntry[] }[] = [{ indent: -1, entries: root }];
  for (const line of readLines(`${version}_${message}.struct.txt`)) {
    const indent = line.length - line.trimStart().length;
    const [tag, status, repeat] = line.trim().split(/\s+/);
    while (stack[stack.length - 1].indent >= indent) stack.pop();
    const entry: StructEntry = {
      content: tag.startsWith('SG') ? [] : tag,
      mandatory: status === 'M',
      repetition: Number(repeat),
      ...(tag.startsWith('SG') ? { name: tag } : {}),
    };
    stack[stack.length - 1].entries.push(entry);
    if (Array.isArray(entry.content)) stack.push({ indent, entries: entry.content });
  }
  return root;
}

/** ts-edifact's own definition files (segments and elements per message and version), written to a folder. */
function tsEdifactSpecs(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edifact-directory-'));
  for (const version of ['D96A', 'D97A']) {
    const directory = loadDirectory(version);
    const segments: Record<string, { requires: number; elements: string[] }> = {};
    const elements: Record<string, { requires: number; components: string[] }> = {};
    const requires = (items: Item[]) => items.map((i) => i.mandatory).lastIndexOf(true) + 1;
    for (const [tag, items] of directory) {
      if (isComposite(tag)) elements[tag] = { requires: requires(items), components: items.map((i) => i.format!) };
      else segments[tag] = { requires: requires(items), elements: items.map((i) => i.id) };
      for (const item of items)
        if (item.format && !isComposite(tag)) elements[item.id] = { requires: 1, components: [item.format] };
    }
    for (const message of ['ORDERS', 'ORDRSP']) {
      fs.writeFileSync(path.join(dir, `${version}_${message}.segments.json`), JSON.stringify(segments));
      fs.writeFileSync(path.join(dir, `${version}_${message}.elements.json`), JSON.stringify(elements));
    }
  }
  return dir;
}

let specDir: string | null = null;

export type Segment = { name: string; elements: string[][] };

/** Tokenises with ts-edifact, which also checks element and component counts and lengths from the tables. */
export function parseWithTsEdifact(text: string): Segment[] {
  specDir ??= tsEdifactSpecs();
  return new Reader(specDir).parse(text) as Segment[];
}

const PERL_MODULE = '/usr/share/perl5/Business/Edifact/Interchange.pm';
const PERL_SCRIPT = path.resolve(import.meta.dirname, 'edifact-segments.pl');

/** Null when Business::Edifact::Interchange is usable (installed with apt-get as root), else why tests skip. */
export const perlParserUnavailable = () => ensureDebianPackage(PERL_MODULE, 'libbusiness-edifact-interchange-perl');

/**
 * Reads an interchange with Business::Edifact::Interchange, given the bytes the portal sends (UNOC, ISO 8859-1).
 * Perl drops an empty data element's components; it is one empty component here, as in ts-edifact.
 */
export function parseWithPerl(text: string): Segment[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edifact-perl-'));
  const file = path.join(dir, 'interchange.edi');
  fs.writeFileSync(file, Buffer.from(text, 'latin1'));
  let json: string;
  try {
    json = execFileSync('perl', [PERL_SCRIPT, file], { stdio: ['ignore', 'pipe', 'pipe'] }).toString('utf8');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return (JSON.parse(json) as Segment[]).map((s) => ({
    name: s.name,
    elements: s.elements.map((components) => (components.length ? components : [''])),
  }));
}

/**
 * Business::Edifact::Interchange splits at a separator unless the character before it is the release character
 * (a look-behind), so a released '?' right before a separator ('??:', '??+', "??'") hides that separator: a
 * text field ending in '?' is read together with the next one. Messages with that sequence are read right only
 * by ts-edifact and `edifact`.
 */
export const perlMisreads = (text: string) => /(?:^|[^?])(?:\?\?)+[:+']/.test(text);

/** Where two readings of an interchange differ (trailing empty components and elements do not count). */
export function segmentDifferences(a: Segment[], b: Segment[]): string[] {
  const trimmed = (values: string[]) => values.slice(0, values.findLastIndex((v) => v !== '') + 1);
  const shape = (s: Segment) => {
    const elements = s.elements.map(trimmed);
    return JSON.stringify([s.name, elements.slice(0, elements.findLastIndex((e) => e.length > 0) + 1)]);
  };
  const differences: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const [left, right] = [a[i] ? shape(a[i]) : '—', b[i] ? shape(b[i]) : '—'];
    if (left !== right) differences.push(`Segment ${i + 1}: ${left} ≠ ${right}`);
  }
  return differences;
}

/** Length of a value in its format's terms: numeric values count their digits only (sign and decimal mark do not). */
function formatErrors(value: string, format: string): string | null {
  const match = /^(a|an|n)(\.\.)?(\d+)$/.exec(format)!;
  const [, kind, upTo, size] = match;
  const max = Number(size);
  if (kind === 'n') {
    if (!/^-?(\d+([.,]\d*)?|[.,]\d+)$/.test(value)) return `'${value}' ist nicht numerisch (${format})`;
    const digits = value.replace(/\D/g, '').length;
    if (digits > max || (!upTo && digits !== max)) return `'${value}' hat ${digits} Ziffern (${format})`;
    return null;
  }
  const length = Array.from(value).length;
  if (kind === 'a' && /\d/.test(value)) return `'${value}' ist nicht alphabetisch (${format})`;
  if (length > max || (!upTo && length !== max)) return `'${value}' hat ${length} Zeichen (${format})`;
  return null;
}

function elementErrors(directory: Directory, segment: Segment): string[] {
  const errors: string[] = [];
  const where = (i: number, j?: number) => `${segment.name}[${i + 1}${j === undefined ? '' : `:${j + 1}`}]`;
  const items = directory.get(segment.name);
  if (!items) return [`${segment.name}: Segment ist im Verzeichnis nicht definiert`];
  if (segment.elements.length > items.length)
    errors.push(`${segment.name}: ${segment.elements.length} Datenelemente, erlaubt ${items.length}`);
  items.forEach((item, i) => {
    const components = segment.elements[i] ?? [];
    const present = components.some((c) => c !== '');
    if (!present) {
      if (item.mandatory) errors.push(`${where(i)}: Mussfeld ${item.id} fehlt`);
      return;
    }
    if (!item.format) {
      const parts = directory.get(item.id)!;
      if (components.length > parts.length)
        errors.push(`${where(i)}: ${components.length} Komponenten in ${item.id}, erlaubt ${parts.length}`);
      parts.forEach((part, j) => {
        const value = components[j] ?? '';
        if (!value) {
          if (part.mandatory) errors.push(`${where(i, j)}: Mussfeld ${part.id} fehlt`);
        } else {
          const error = formatErrors(value, part.format!);
          if (error) errors.push(`${where(i, j)} ${part.id}: ${error}`);
        }
      });
    } else {
      if (components.length > 1) errors.push(`${where(i)}: ${item.id} ist kein zusammengesetztes Datenelement`);
      const error = formatErrors(components[0], item.format);
      if (error) errors.push(`${where(i)} ${item.id}: ${error}`);
    }
  });
  return errors;
}

/**
 * Every violation of the directory the message's UNH names, in the segments `parse` reads (by default
 * Business::Edifact::Interchange's): segments, their order, groups and repetitions (ts-edifact's Tracker over the
 * message structure), data elements (status, count, format), and UNT's count.
 */
export function directoryErrors(text: string, parse: (text: string) => Segment[] = parseWithPerl): string[] {
  let segments: Segment[];
  try {
    segments = parse(text);
  } catch (error) {
    const { message, stderr } = error as Error & { stderr?: Buffer };
    return [
      `${parse === parseWithPerl ? 'Business::Edifact::Interchange' : 'ts-edifact'}: ${stderr?.toString() || message}`,
    ];
  }
  const errors: string[] = [];
  const unh = segments.find((s) => s.name === 'UNH');
  if (!unh) return ['UNH fehlt'];
  const [type, , release] = unh.elements[1];
  const version = `D${release}`;
  const directory = loadDirectory(version);
  for (const s of segments) errors.push(...elementErrors(directory, s));
  const message = segments.slice(segments.indexOf(unh), segments.findIndex((s) => s.name === 'UNT') + 1);
  const tracker = new Tracker(loadStructure(version, type) as never);
  for (const s of message) {
    try {
      tracker.accept(s.name);
    } catch (error) {
      errors.push(`${s.name}: ${(error as Error).message}`);
      break;
    }
  }
  const unt = message[message.length - 1];
  if (unt?.name !== 'UNT') errors.push('UNT fehlt');
  else if (Number(unt.elements[0][0]) !== message.length)
    errors.push(`UNT zählt ${unt.elements[0][0]} Segmente, die Nachricht hat ${message.length}`);
  return errors;
}
