/**
 * The connection cap, shedding idle sockets before refusing anyone. node's own maxConnections
 * closes every fresh connection once the cap is full, even while most of the sockets that fill it
 * are idle keep-alives (or a slow client's that never sent a request): so a flood of idle sockets
 * locked real clients out until the idle timeout freed some. Here a fresh connection past the cap
 * closes the oldest idle socket instead, and is refused only when every socket is serving a request.
 *
 * Nothing runs per request: idleness is read, only when the cap is full, from the response node
 * assigns to a socket while it serves a request (`_httpMessage`, what node's own
 * closeIdleConnections() reads).
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

type ServedSocket = Socket & { _httpMessage?: { headersSent: boolean; shouldKeepAlive: boolean } | null };

export interface ConnectionCap {
  /** Sockets open and counted against the cap. */
  readonly open: number;
  /** Idle sockets closed to make room, and fresh connections refused because none was idle. */
  readonly shed: number;
  readonly refused: number;
  /**
   * Every response in flight whose headers are not yet written says `Connection: close` and ends
   * its socket: for a server that is closing, so keep-alive clients leave with their last answer
   * instead of holding close() open (a per-request onSend hook did this at a cost to every request).
   */
  closeAfterResponses(): void;
}

export function capConnections(server: Server, max: number): ConnectionCap {
  // Insertion order is arrival order: the first idle socket found is the oldest.
  const sockets = new Set<ServedSocket>();
  const stats = { shed: 0, refused: 0 };
  server.on('connection', (socket: ServedSocket) => {
    if (sockets.size >= max) {
      let oldestIdle: ServedSocket | undefined;
      for (const s of sockets) {
        if (!s._httpMessage) {
          oldestIdle = s;
          break;
        }
      }
      if (!oldestIdle) {
        stats.refused++;
        socket.destroy();
        return;
      }
      stats.shed++;
      sockets.delete(oldestIdle);
      oldestIdle.destroy();
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return {
    get open() {
      return sockets.size;
    },
    get shed() {
      return stats.shed;
    },
    get refused() {
      return stats.refused;
    },
    closeAfterResponses() {
      for (const s of sockets) if (s._httpMessage && !s._httpMessage.headersSent) s._httpMessage.shouldKeepAlive = false;
    },
  };
}
