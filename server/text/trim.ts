// Trimming runs of one character in linear time. The obvious regular
// expressions (/^-+|-+$/g, /\/+$/) are quadratic on a long run of that
// character followed by anything else, which request data can be.

/** `text` without any run of `char` at its start and end. */
export function trimChar(text: string, char: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === char) start++;
  while (end > start && text[end - 1] === char) end--;
  return text.slice(start, end);
}

/** `text` without any run of `char` at its end. */
export function trimEndChar(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === char) end--;
  return text.slice(0, end);
}

/** `text` without any run of `char` at its start. */
export function trimStartChar(text: string, char: string): string {
  let start = 0;
  while (start < text.length && text[start] === char) start++;
  return text.slice(start);
}
