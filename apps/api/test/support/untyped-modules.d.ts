/** Test-only packages without type declarations. */
declare module 'edifact' {
  export class Reader {
    constructor(options?: { autoDetectEncoding?: boolean });
    parse(document: string): { name: string; elements: string[][] }[];
  }
  export class Validator {
    define(definitions: Record<string, unknown>): void;
  }
  export class Parser {
    constructor(validator?: Validator);
    /** Character repertoire checked while tokenising: UNOA, UNOB, UNOC, UNOY. */
    encoding(level: string): void;
    onopensegment: (segment: string) => void;
    onelement: () => void;
    oncomponent: (value: string) => void;
    write(chunk: string): void;
    end(): void;
  }
}
declare module 'edifact/segments.js' {
  const segments: Record<string, unknown>;
  export default segments;
}
declare module 'edifact/elements.js' {
  const elements: Record<string, unknown>;
  export default elements;
}
declare module 'bunyan' {
  const bunyan: { createLogger(options: { name: string; level: string }): unknown };
  export default bunyan;
}
