#!/usr/bin/env node
// The `shotgen` command. The service runs its TypeScript sources through tsx's loader, so there is
// no build step between a checkout and `npm start`.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
