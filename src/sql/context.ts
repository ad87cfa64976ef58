// Compilation state shared by the IR → SQL modules: a counter giving deterministic table aliases.

export class CompileContext {
  private next = 0;

  /** `_<n>_<hint>`: unique within a statement, stable for the same IR (golden tests). */
  alias(hint: string): string {
    return `_${this.next++}_${hint}`;
  }
}
