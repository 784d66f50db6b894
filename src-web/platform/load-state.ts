/** Where a store's request for one piece of data stands; pages show a spinner, the data or the load error from it. */
export type LoadState = 'idle' | 'loading' | 'loaded' | 'error';
