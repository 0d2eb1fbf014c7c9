/** What one client may hold of the server (./server.ts applies them; HTTP_* settings in src/config.ts set them). */
export interface HttpLimits {
  /** Time to receive a request's headers. */
  headersTimeoutMs: number;
  /** Time to receive a whole request, body included (not the time to answer it). */
  requestTimeoutMs: number;
  /** A socket with no traffic for this long is closed, also while it waits for an answer. */
  idleTimeoutMs: number;
  /** Open connections at most; past it the oldest idle one is closed (src/http/connection-cap.ts). */
  maxConnections: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  idleTimeoutMs: 60_000,
  maxConnections: 10_000,
};
