/**
 * jsdom ships no type declarations and @types/jsdom is not installed; the server tests use only
 * this much of it, to parse served HTML with a real HTML parser instead of regular expressions.
 */
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string);
    readonly window: { readonly document: Document };
  }
}
