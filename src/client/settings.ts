/** Where the client commands send their requests, and with which key: SHOTGEN_URL, SHOTGEN_API_KEY. */
import { ClientFailure, EXIT } from './exit-codes.ts';

export const DEFAULT_URL = 'http://localhost:3000/api/v1';

export interface ClientSettings {
  baseUrl: string;
  apiKey: string;
}

export function clientSettings(env: NodeJS.ProcessEnv = process.env): ClientSettings {
  const apiKey = env.SHOTGEN_API_KEY?.trim();
  if (!apiKey)
    throw new ClientFailure('SHOTGEN_API_KEY is not set: create a key in the dashboard or with `shotgen keys create`', EXIT.usage);
  const baseUrl = (env.SHOTGEN_URL?.trim() || DEFAULT_URL).replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ClientFailure(`SHOTGEN_URL: expected the API's URL such as ${DEFAULT_URL}, got "${baseUrl}"`, EXIT.usage);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ClientFailure(`SHOTGEN_URL: expected an http(s) URL, got "${baseUrl}"`, EXIT.usage);
  return { baseUrl, apiKey };
}
