/** The renderer: plan slides and their screens in, store-ready PNGs out. */
export { RenderPool, type RenderPoolOptions } from './pool.ts';
export { checkStoreRules } from './store-rules.ts';
export type { RenderedSlide, RenderInput, RenderOptions, SlideDigest, SlideLint } from './types.ts';
export { FONT_SOURCES } from './font-sources.ts';
