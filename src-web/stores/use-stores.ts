import { createContext, useContext } from 'react';
import type { RootStore } from './root-store';

export const StoresContext = createContext<RootStore | null>(null);

/** The only way components reach the stores. */
export function useStores(): RootStore {
  const root = useContext(StoresContext);
  if (!root) throw new Error('useStores() needs <StoresContext.Provider> (see app.tsx)');
  return root;
}

/** Provides the RootStore to the component tree (app.tsx, tests/web/helpers/render-app.tsx). */
export const StoresProvider = StoresContext.Provider;
