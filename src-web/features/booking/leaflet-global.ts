import L from 'leaflet';

// leaflet.markercluster extends the global L when it runs: this module is imported before it.
Object.assign(globalThis, { L });

export default L;
