import {
  BootstrapConfigSchema,
  type AppConfig,
  type BootstrapConfig,
  type ContactClinic,
  type EnvironmentConfig,
  type RadiologyConfig,
  type ThemeConfig,
} from '@contract/api/config';

export interface ConfigOverrides {
  app?: Partial<AppConfig>;
  radiology?: Partial<RadiologyConfig>;
  theme?: Partial<ThemeConfig>;
  environment?: Partial<EnvironmentConfig>;
}

/**
 * A BootstrapConfig as the server sends it, checked against the contract so a fixture can
 * never drift from what the real server must produce.
 */
export function testConfig(overrides: ConfigOverrides = {}): BootstrapConfig {
  return BootstrapConfigSchema.parse({
    app: {
      locale: 'en-AU',
      metaTitle: 'Patient portal',
      description: 'Book and manage your radiology appointments',
      keywords: 'radiology, x-ray, MRI',
      socialDescription: null,
      searchVerificationId: null,
      analyticsEnabled: false,
      analyticsId: null,
      trackingEnabled: false,
      trackingId: null,
      questionnaireCss: null,
      kioskNoActivitySeconds: 90,
      keepAliveEnabled: false,
      keepAliveIntervalSeconds: 600,
      showLinkToAdminPanel: true,
      versionOnPatientPortalEnabled: true,
      version: '1.4.2',
      versionHash: 'a1b2c3d',
      referrerReportQualityFeedbackEnabled: false,
      referrerReportQualityFeedbackRedirectUrl: null,
      bookingRequestsDownloadReferralEnabled: true,
      identityClientId: null,
      identityAuthority: null,
      identityScope: null,
      identityProtocolMode: 'AAD',
      bannerEnabled: false,
      bannerHtml: null,
      headerMessage: null,
      patientPortalBackgroundEnabled: false,
      otpRequired: true,
      otpResendSeconds: 5,
      navigation: {
        home: null,
        externalHome: 'https://harbourrange.example',
        about: null,
        contact: null,
        terms: null,
        privacy: null,
        login: 'https://admin.harbourrange.example/login',
      },
      ...overrides.app,
    },
    radiology: {
      name: 'Harbour & Range Radiology',
      longName: 'Harbour & Range Radiology Pty Ltd',
      about: '<p>Imaging across Sydney and the Hunter since 1998.</p>',
      contact: '<p>Call us on <a href="tel:0255500100">02 5550 0100</a>.</p>',
      aboutUrl: null,
      contactUrl: null,
      termsAndConditionsUrl: null,
      privacyPolicyUrl: 'https://harbourrange.example/privacy',
      confirmationHeaderUrl: null,
      showMenuOnConfirmationPage: true,
      showCustomHeaderAndFooter: false,
      customFooter: null,
      showBrandingLogo: true,
      bannerPositionCss: null,
      closeBanner: true,
      mapUiEnabled: true,
      showUnableToLocateWindow: true,
      weekStartsTodayEnabled: false,
      code: 'HRR',
      domainAdmin: null,
      ...overrides.radiology,
    },
    bodyFigure: {
      gradientColors: ['#dbeafe', '#1d4ed8'],
      hoverColor: '#f59e0b',
      hoverTransitionMs: 200,
      bodyPartStyles: {},
    },
    integration: { errorReportingDsn: null, errorReportingEnvironment: 'test' },
    theme: {
      colorPrimary: '#0f5d8c',
      colorText: '#1f2937',
      colorBackground: '#ffffff',
      colorLink: '#0f5d8c',
      colorHeaderBackground: '#ffffff',
      colorHeaderText: '#1f2937',
      colorFooterBackground: '#0b3a57',
      colorFooterText: '#ffffff',
      fontFamily: 'system-ui, sans-serif',
      borderRadius: 6,
      ...overrides.theme,
    },
    environment: {
      profiles: [],
      production: true,
      readOnly: false,
      bannerCorner: 'top-left',
      ...overrides.environment,
    },
  });
}

/** A New South Wales clinic, its fields grouped as who it is, where, how to reach it and when it is open. */
function nswClinic(
  identity: Pick<ContactClinic, 'id' | 'slug' | 'name' | 'region'>,
  { latitude, longitude, ...address }: Omit<ContactClinic['address'], 'state'> & Pick<ContactClinic, 'latitude' | 'longitude'>,
  contact: Pick<ContactClinic, 'phone' | 'email'>,
  openingHours: ContactClinic['openingHours'],
): ContactClinic {
  return {
    ...identity,
    address: { ...address, state: 'NSW' },
    ...contact,
    latitude,
    longitude,
    timeZone: 'Australia/Sydney',
    openingHours,
  };
}

/** Two clinics as GET /api/config/contact returns them. */
export const TEST_CLINICS: ContactClinic[] = [
  nswClinic(
    { id: 'c1', slug: 'parramatta', name: 'Parramatta', region: { id: 'r1', slug: 'sydney-metro', name: 'Sydney Metro' } },
    { street: 'Level 2, 118 Macquarie Street', suburb: 'Parramatta', postcode: '2150', latitude: -33.8156, longitude: 151.0029 },
    { phone: '02 5550 0110', email: 'parramatta@harbourrange.example' },
    [
      { weekday: 1, opens: '07:30', closes: '18:00' },
      { weekday: 6, opens: '08:00', closes: '12:00' },
    ],
  ),
  nswClinic(
    { id: 'c2', slug: 'newcastle', name: 'Newcastle', region: { id: 'r2', slug: 'hunter', name: 'Hunter' } },
    { street: '40 Hunter Street', suburb: 'Newcastle', postcode: '2300', latitude: -32.9267, longitude: 151.7789 },
    { phone: '02 5550 0300', email: null },
    [{ weekday: 2, opens: '08:00', closes: '17:00' }],
  ),
];
