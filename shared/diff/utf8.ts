/**
 * UTF-8 sizes of text without encoding it, in the window as in the core: a string's UTF-8
 * byte count is what the card states and what the limits count.
 */

/** Bytes `text` takes in UTF-8; a lone surrogate counts 3, as it is written as U+FFFD. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit < 0xdc00 && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit < 0xe000;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `text` as it reads back once written in UTF-8: each lone surrogate becomes U+FFFD. */
export function asWritten(text: string): string {
  return text.replace(LONE_SURROGATE, '\ufffd');
}
