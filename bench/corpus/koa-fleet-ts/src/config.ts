// Runtime configuration from the environment, with development defaults.
export const config = {
  port: Number(process.env.PORT ?? 8080),
  databaseUrl: process.env.DATABASE_URL ?? 'postgres://fleet@localhost:5432/fleet',
  sessionKeys: [process.env.FLEET_SESSION_KEY ?? 'fleet-session-key-2023'], // vuln: hardcoded-secret
  jwtPublicKey: process.env.FLEET_JWT_PUBLIC_KEY ?? '', // safe: hardcoded-secret
  telematicsApiKey: 'tlm_live_8HqW2zR5vX9cK3mN7pB4yT6d', // vuln: hardcoded-secret
  photoDir: process.env.FLEET_PHOTO_DIR ?? '/var/lib/fleet/photos',
  telematicsBase: 'https://api.telematics-provider.example/v1',
}
