// The linebreak package ships no type declarations; this covers the part the renderer uses.
declare module 'linebreak' {
  interface Break {
    position: number;
    required: boolean;
  }
  export default class LineBreaker {
    constructor(text: string);
    nextBreak(): Break | null;
  }
}
