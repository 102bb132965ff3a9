/** Stylesheets are bundled by esbuild (web/build.ts); importing one adds it to the page's CSS file. */
declare module '*.css';
