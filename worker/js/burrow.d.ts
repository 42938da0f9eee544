// For TypeScript resolving without `exports` (moduleResolution "node10"): the declarations are
// in burrow.d.mts, beside burrow.mjs.
export * from "./burrow.mjs";
