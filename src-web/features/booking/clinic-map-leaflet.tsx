import { useEffect, useLayoutEffect, useRef } from 'react';
import L from './leaflet-global';
import 'leaflet.markercluster';
import 'leaflet/dist/leaflet.css';
import 'leaflet.markercluster/dist/MarkerCluster.css';
import { MAP_CLINIC_ZOOM, MAP_RESET_ZOOM, type MapTiles } from '@contract/api/config';
import type { ClinicWithDistance, Location } from '@contract/api/booking';
import { MarkerRoving } from './clinic-map-keyboard';
import { declutterMarkerNames } from './clinic-map-labels';

/**
 * The Leaflet map itself, in its own chunk (clinic-map.tsx loads it lazily): the provider's tiles,
 * one named marker per clinic, clustered where they overlap, the markers one Tab stop with the
 * arrow keys between them (clinic-map-keyboard.ts), names that would collide shrunk to their pins
 * (clinic-map-labels.ts).
 */

export interface LeafletMapTexts {
  zoomIn: string;
  zoomOut: string;
  cluster: (count: number) => string;
  /** The markers' toolbar. */
  markers: string;
}

export interface LeafletClinicMapProps {
  tiles: MapTiles;
  clinics: ClinicWithDistance[];
  selectedSlug: string | null;
  /** The patient's position (not the default region): a dot, not a target. */
  position: Location | null;
  /** Bumped by the "Reset map" button. */
  resetCount: number;
  texts: LeafletMapTexts;
  onChoose: (slug: string) => void;
}

/** The tile URL with the provider's API key in place of {apiKey}. */
export function tileUrlWithKey(tiles: Pick<MapTiles, 'tileUrl' | 'apiKey'>): string {
  return tiles.tileUrl.replaceAll('{apiKey}', encodeURIComponent(tiles.apiKey ?? ''));
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A pin with the clinic's name beside it: the visible text is the accessible name. */
function clinicIcon(name: string, selected: boolean): L.DivIcon {
  return L.divIcon({
    className: selected ? 'pp-map-marker pp-map-marker-selected' : 'pp-map-marker',
    html: `<span class="pp-map-pin" aria-hidden="true"></span><span class="pp-map-name">${escapeHtml(name)}</span>`,
    iconSize: undefined,
    iconAnchor: [14, 16],
  });
}

function reducedMotion(): boolean {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Longer than markercluster's marker transitions (0.3 s). */
const MARKERS_SETTLE_MS = 400;

const isActivation = (event: KeyboardEvent) => event.key === 'Enter' || event.key === ' ';

export default function LeafletClinicMap({ tiles, clinics, selectedSlug, position, resetCount, texts, onChoose }: LeafletClinicMapProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const groupRef = useRef<L.MarkerClusterGroup | null>(null);
  const markersRef = useRef(new Map<string, L.Marker>());
  const youRef = useRef<L.CircleMarker | null>(null);
  const rovingRef = useRef<MarkerRoving | null>(null);
  // Each marker's and cluster's place in the list (a cluster: its nearest clinic's), by element.
  const ranksRef = useRef(new WeakMap<HTMLElement, number>());
  const markerRanksRef = useRef(new Map<L.Marker, number>());
  const tidyRef = useRef<() => void>(() => undefined);
  // The latest values for Leaflet's handlers, which are bound once.
  const latest = useRef({ onChoose, texts, clinics, position, selectedSlug });
  useLayoutEffect(() => {
    latest.current = { onChoose, texts, clinics, position, selectedSlug };
  });

  // The map and its cluster group, once.
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const map = L.map(container, { zoomControl: false, attributionControl: false, keyboard: true });
    // Bottom left: at the top a sticky header of the page (or the provider's) may cover them.
    L.control.zoom({ position: 'bottomleft', zoomInTitle: texts.zoomIn, zoomOutTitle: texts.zoomOut }).addTo(map);
    L.control.attribution({ prefix: '<a href="https://leafletjs.com">Leaflet</a>' }).addTo(map);
    L.tileLayer(tileUrlWithKey(tiles), { attribution: tiles.attribution, maxZoom: tiles.maxZoom }).addTo(map);
    const group = L.markerClusterGroup({
      showCoverageOnHover: false,
      spiderfyOnMaxZoom: true,
      maxClusterRadius: 72, // the names beside the pins need room
      iconCreateFunction: (cluster) => {
        const count = cluster.getChildCount();
        return L.divIcon({
          className: 'pp-map-cluster',
          html: `<span aria-hidden="true">${count}</span><span class="pp-visually-hidden">${escapeHtml(latest.current.texts.cluster(count))}</span>`,
          iconSize: [44, 44],
        });
      },
    });
    // Enter or Space on a focused cluster opens it, as a click does; focus goes to its first clinic.
    group.on('clusterkeydown', (event) => {
      const keyboard = (event as L.LeafletKeyboardEvent).originalEvent;
      if (!isActivation(keyboard)) return;
      keyboard.preventDefault();
      const cluster = (event as unknown as { layer: L.MarkerCluster }).layer;
      const first = cluster.getAllChildMarkers()[0];
      if (first) group.zoomToShowLayer(first, () => first.getElement()?.focus({ preventScroll: true }));
    });
    group.addTo(map);
    mapRef.current = map;
    groupRef.current = group;
    const markers = markersRef.current;

    // One Tab stop for the markers (next frame: a zoom adds and removes many markers), and no names
    // on top of each other, measured once the markers have stopped moving (markercluster's CSS
    // transitions last 0.3 s and outlive its animationend).
    const pane = map.getPane('markerPane');
    const ranks = ranksRef.current;
    const markerRanks = markerRanksRef.current;
    const rank = (icon: HTMLElement) => ranks.get(icon) ?? Number.MAX_SAFE_INTEGER;
    const selectedIcon = () => markers.get(latest.current.selectedSlug ?? '')?.getElement() ?? null;
    let frame = 0;
    let settle = 0;
    if (pane) {
      pane.setAttribute('role', 'toolbar');
      pane.setAttribute('aria-label', texts.markers);
      const roving = new MarkerRoving(pane, rank, selectedIcon);
      rovingRef.current = roving;
      tidyRef.current = () => {
        cancelAnimationFrame(frame);
        window.clearTimeout(settle);
        frame = requestAnimationFrame(() => roving.update());
        settle = window.setTimeout(() => {
          const chosen = selectedIcon();
          declutterMarkerNames(pane, (icon) => (icon === chosen ? -1 : rank(icon)));
        }, MARKERS_SETTLE_MS);
      };
    }
    map.on('layeradd', (event) => {
      const layer = event.layer;
      const element = layer instanceof L.Marker ? layer.getElement() : undefined;
      if (!element) return;
      const children = 'getAllChildMarkers' in layer ? (layer as L.MarkerCluster).getAllChildMarkers() : [layer as L.Marker];
      ranks.set(element, Math.min(...children.map((child) => markerRanks.get(child) ?? Number.MAX_SAFE_INTEGER)));
      tidyRef.current();
    });
    map.on('zoomend moveend resize', () => tidyRef.current());
    group.on('animationend', () => tidyRef.current());
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(settle);
      rovingRef.current?.dispose();
      rovingRef.current = null;
      map.remove();
      mapRef.current = null;
      groupRef.current = null;
      markers.clear();
    };
    // tiles and texts are fixed for the map's life (the provider's configuration, the language).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The markers, fitted to the clinics whenever the list changes.
  useEffect(() => {
    const map = mapRef.current;
    const group = groupRef.current;
    if (!map || !group) return;
    group.clearLayers();
    markersRef.current.clear();
    markerRanksRef.current.clear();
    for (const [index, entry] of clinics.entries()) {
      const { slug, name, latitude, longitude } = entry.clinic;
      const marker = L.marker([latitude, longitude], {
        icon: clinicIcon(name, slug === latest.current.selectedSlug),
        keyboard: true,
        title: name,
        alt: name,
        riseOnHover: true,
      });
      marker.on('click', () => latest.current.onChoose(slug));
      marker.on('keydown', (event) => {
        const keyboard = (event as L.LeafletKeyboardEvent).originalEvent;
        if (!isActivation(keyboard)) return;
        keyboard.preventDefault(); // Space would scroll the page
        latest.current.onChoose(slug);
      });
      marker.on('add', () => marker.getElement()?.setAttribute('aria-pressed', String(slug === latest.current.selectedSlug)));
      markersRef.current.set(slug, marker);
      markerRanksRef.current.set(marker, index);
    }
    group.addLayers([...markersRef.current.values()]);
    fitToClinics(map, clinics, latest.current.selectedSlug);
    tidyRef.current();
  }, [clinics]);

  // The patient's position as a dot (not focusable: it is not a choice).
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    youRef.current?.remove();
    youRef.current = position
      ? L.circleMarker([position.latitude, position.longitude], {
          radius: 7,
          color: '#ffffff',
          weight: 3,
          fillColor: '#b91c1c',
          fillOpacity: 1,
          interactive: false,
        }).addTo(map)
      : null;
  }, [position]);

  // The chosen clinic: its marker highlighted, the map on it at zoom 16.
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    for (const [slug, marker] of markersRef.current) {
      const selected = slug === selectedSlug;
      marker.setIcon(clinicIcon(marker.options.title ?? slug, selected)); // reuses the element: focus stays
      marker.setZIndexOffset(selected ? 1000 : 0);
      marker.getElement()?.setAttribute('aria-pressed', String(selected));
    }
    // setIcon made the markers focusable again and dropped their short form; the chosen one takes the stop.
    rovingRef.current?.reset();
    tidyRef.current();
    const entry = clinics.find((candidate) => candidate.clinic.slug === selectedSlug);
    if (entry) {
      const focused = document.activeElement;
      const marker = markersRef.current.get(entry.clinic.slug);
      const hadFocus = marker?.getElement() === focused;
      map.setView([entry.clinic.latitude, entry.clinic.longitude], Math.min(MAP_CLINIC_ZOOM, tiles.maxZoom), {
        animate: !reducedMotion(),
      });
      // Clustering re-adds markers after a zoom: the focused one gets its focus back.
      if (hadFocus) map.once('moveend', () => marker?.getElement()?.focus({ preventScroll: true }));
    }
    // clinics change refits in the effect above; this follows the choice only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectedSlug]);

  // "Reset map": back to zoom 13 around the patient (or the nearest clinic).
  useEffect(() => {
    const map = mapRef.current;
    if (!map || resetCount === 0) return;
    const { clinics: current, position: here } = latest.current;
    const centre = here ?? current[0]?.clinic;
    if (centre) map.setView([centre.latitude, centre.longitude], MAP_RESET_ZOOM, { animate: !reducedMotion() });
  }, [resetCount]);

  return <div ref={containerRef} className="pp-map-canvas" />;
}

/** How many of the nearest clinics the first view fits: those the list shows first. */
const FIRST_VIEW_CLINICS = 5;

/**
 * The first view: the nearest clinics (at most zoom 13), not every clinic of the provider, which
 * would zoom out to a state and cluster the nearby ones into one dot; or the chosen clinic at zoom 16.
 */
function fitToClinics(map: L.Map, clinics: ClinicWithDistance[], selectedSlug: string | null): void {
  const chosen = clinics.find((entry) => entry.clinic.slug === selectedSlug);
  if (chosen) {
    map.setView([chosen.clinic.latitude, chosen.clinic.longitude], MAP_CLINIC_ZOOM);
    return;
  }
  const points = clinics.slice(0, FIRST_VIEW_CLINICS).map((entry) => L.latLng(entry.clinic.latitude, entry.clinic.longitude));
  if (points.length === 0) return;
  map.fitBounds(L.latLngBounds(points), { padding: [32, 32], maxZoom: MAP_RESET_ZOOM, animate: false });
}
