/**
 * @napi-rs/canvas (skia), loaded on first use. Imported at the top of a module, it loaded with the
 * service's module graph in every process, ~0.15-0.2 CPU-s (its JavaScript and the skia binding's
 * dlopen) in each `shotgen serve` and worker at start, although the main thread draws nothing until
 * a preview, a revision or a caption's fit asks (the slides are drawn in the render threads, which
 * load it with their first slide). `require` keeps every call site synchronous.
 */
import { createRequire } from 'node:module';
import type * as Canvas from '@napi-rs/canvas';

const require = createRequire(import.meta.url);
let loaded: typeof Canvas | undefined;

/** The module, loading it the first time. */
export const skia = (): typeof Canvas => (loaded ??= require('@napi-rs/canvas') as typeof Canvas);
