// CSV cells for the files staff open in a spreadsheet (the lead export, the analytics tables).
// Shared by the services and the web app, because the same rule must hold for every export: text
// that anyone (a visitor's form, a UTM parameter) wrote can never become a formula.

/** What a spreadsheet may read as the start of a formula (OWASP "CSV Injection"). */
const FORMULA_START = /^[\s]*[=+\-@\t\r]/;
/**
 * A formula start after a separator: an import that splits on `,`, `;` or a tab without honouring
 * the quotes (or a line break inside the cell) makes that part a cell of its own.
 */
const FORMULA_AFTER_SEPARATOR = /([,;\t\r\n][ ]*)(?=[=+\-@\t\r])/g;

export type CsvValue = string | number | boolean | null | undefined;

/**
 * One cell, always quoted (inner quotes doubled). A cell that starts with `=`, `+`, `-`, `@`, a
 * tab or a carriage return (after any spaces), and every part after a separator that does, gets
 * a leading `'`, so no spreadsheet reads it as a formula.
 */
export function csvCell(value: CsvValue): string {
  // A number is written as one (a negative one is not a formula).
  if (typeof value === "number") return Number.isFinite(value) ? `"${value}"` : '""';
  const text = defuseFormulas(value === null || value === undefined ? "" : String(value));
  return `"${text.replaceAll('"', '""')}"`;
}

/** The text with a `'` before each formula start: at its beginning and after each separator. */
export function defuseFormulas(text: string): string {
  const defused = text.replace(FORMULA_AFTER_SEPARATOR, "$1'");
  return FORMULA_START.test(defused) ? `'${defused}` : defused;
}

/** Whether a spreadsheet could read a formula in the text, split on `,`, `;`, tabs or lines or not. */
export const mayReadAsFormula = (text: string): boolean => defuseFormulas(text) !== text;

/** What a validated phone number may hold (libs/contracts `phoneNumber`). */
const PHONE = /^[0-9 +()-]+$/;

/**
 * A validated phone number: "+31 6 12345678" keeps its `+` and gets a leading space instead of
 * the apostrophe, which a spreadsheet would show. It holds digits, spaces and `+ ( ) -` only, so
 * no program can read a function, a link or a command in it; the space makes Excel and
 * LibreOffice show it as text. Anything else is an ordinary cell.
 */
export function csvPhoneCell(value: string | null | undefined): string {
  if (value && PHONE.test(value) && /^[+-]/.test(value)) return `" ${value}"`;
  return csvCell(value);
}
