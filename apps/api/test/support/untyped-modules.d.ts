/** Test-only packages without type declarations. */
declare module 'edifact' {
  export class Reader {
    constructor(options?: { autoDetectEncoding?: boolean });
    parse(document: string): { name: string; elements: string[][] }[];
  }
}
declare module 'bunyan' {
  const bunyan: { createLogger(options: { name: string; level: string }): unknown };
  export default bunyan;
}
