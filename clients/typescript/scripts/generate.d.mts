export declare function generateSchema(document: unknown): Promise<string>;
export declare const SCHEMA_FILE: string;
