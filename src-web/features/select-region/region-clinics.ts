import type { ContactClinic, Region } from '@contract/api/config';

export interface RegionClinics {
  region: Region;
  clinics: ContactClinic[];
  /** The middle of the region's clinics: booking sorts the clinics from there. */
  centre: { latitude: number; longitude: number };
}

/** The clinics grouped by region, in the server's order (regions by first appearance). */
export function groupByRegion(clinics: readonly ContactClinic[]): RegionClinics[] {
  const groups = new Map<string, RegionClinics>();
  for (const clinic of clinics) {
    let group = groups.get(clinic.region.id);
    if (!group) {
      group = { region: clinic.region, clinics: [], centre: { latitude: 0, longitude: 0 } };
      groups.set(clinic.region.id, group);
    }
    group.clinics.push(clinic);
  }
  for (const group of groups.values()) {
    const count = group.clinics.length;
    group.centre = {
      latitude: group.clinics.reduce((sum, clinic) => sum + clinic.latitude, 0) / count,
      longitude: group.clinics.reduce((sum, clinic) => sum + clinic.longitude, 0) / count,
    };
  }
  return [...groups.values()];
}

const round = (value: number) => value.toFixed(4);

/** Booking inside the frame, its clinics sorted from the region's middle. */
export function regionBookingHref(bookingPath: string, group: RegionClinics): string {
  return `${bookingPath}?lat=${round(group.centre.latitude)}&lng=${round(group.centre.longitude)}`;
}

/** Booking inside the frame with this clinic chosen once the exams are. */
export function clinicBookingHref(bookingPath: string, clinic: ContactClinic): string {
  const query = new URLSearchParams({ clinic: clinic.slug, lat: round(clinic.latitude), lng: round(clinic.longitude) });
  return `${bookingPath}?${query.toString()}`;
}
