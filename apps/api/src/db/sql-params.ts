/** Numbered placeholders ($1, $2, …) for SQL built from parts: every value goes in `values`, never into the text. */
export class SqlParams {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
