// The stopword package ships no type declarations; this covers the part the planner uses.
declare module 'stopword' {
  export function removeStopwords(tokens: string[], stopwords?: string[]): string[];
  export const eng: string[];
  export const fra: string[];
  export const deu: string[];
  export const spa: string[];
  export const ita: string[];
  export const por: string[];
  export const nld: string[];
  export const swe: string[];
  export const dan: string[];
  export const nob: string[];
  export const fin: string[];
  export const pol: string[];
  export const tur: string[];
  export const rus: string[];
}
