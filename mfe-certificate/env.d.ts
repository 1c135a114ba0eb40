/** Replaced at build time by DefinePlugin (build/createWebpackConfig.mjs). */
declare const __FINISHLINE_BUILD_BANNER__: string;
declare const __FINISHLINE_REMOTE_NAME__: string;
declare const __FINISHLINE_HARNESS_API_URL__: string;

/** A bundled font file: webpack hands its URL (asset/resource). */
declare module '*.ttf' {
  const url: string;
  export default url;
}
