// Writing a report's sheets as CSV or XLSX onto a stream (the HTTP reply):
// rows go out as they are written, never the whole file in memory.
//   - CSV (csv-stringify): UTF-8 with a byte order mark so that Excel reads
//     Cyrillic; sheets one after another, each under its name and a blank
//     line; text cells that start with = + - @ (or a tab or carriage return)
//     get a leading apostrophe so that a spreadsheet never runs them as a
//     formula (OWASP "CSV injection"); numbers are numbers.
//   - XLSX (exceljs' streaming WorkbookWriter): one worksheet per sheet,
//     money as numbers in roubles with two decimals.
import type { Writable } from "node:stream";
import { stringify } from "csv-stringify/sync";
import ExcelJS from "exceljs";
import { roubles, type Cell, type Sheet } from "./tables";

const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell a spreadsheet would take for a formula, defused. */
export function escapeFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

function csvCell(cell: Cell): string {
  if (cell === null) return "";
  if (typeof cell === "bigint") return roubles(cell);
  if (typeof cell === "number") return String(cell);
  return escapeFormula(cell);
}

function write(out: Writable, chunk: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    if (out.write(chunk)) resolve();
    else {
      out.once("drain", resolve);
      out.once("error", reject);
    }
  });
}

export async function writeCsv(out: Writable, sheets: Sheet[]): Promise<void> {
  await write(out, "\uFEFF");
  for (const [i, sheet] of sheets.entries()) {
    if (i > 0) await write(out, "\r\n");
    if (sheets.length > 1) await write(out, stringify([[escapeFormula(sheet.name)]], { record_delimiter: "windows" }));
    await write(out, stringify([sheet.headers.map(escapeFormula)], { record_delimiter: "windows" }));
    // In slices, so that a long sheet leaves as it is formatted.
    for (let at = 0; at < sheet.rows.length; at += 500) {
      await write(out, stringify(sheet.rows.slice(at, at + 500).map((row) => row.map(csvCell)), { record_delimiter: "windows" }));
    }
  }
}

function xlsxCell(cell: Cell): string | number | null {
  if (typeof cell === "bigint") return Number(roubles(cell));
  return cell;
}

export async function writeXlsx(out: Writable, sheets: Sheet[]): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  for (const sheet of sheets) {
    const ws = workbook.addWorksheet(sheet.name.slice(0, 31));
    const header = ws.addRow(sheet.headers);
    header.font = { bold: true };
    header.commit();
    for (const row of sheet.rows) {
      const r = ws.addRow(row.map(xlsxCell));
      row.forEach((cell, i) => {
        if (typeof cell === "bigint") r.getCell(i + 1).numFmt = "0.00";
      });
      r.commit();
    }
    ws.commit();
  }
  await workbook.commit();
}
