// Telematics provider client: positions and odometer readings; fleet managers can add
// their own webhook to receive alerts.
import { readFileSync } from 'node:fs'
import https from 'node:https'
import { config } from '../config'

export class TelematicsClient {
  constructor(private readonly baseUrl: string = config.telematicsBase) {}

  async position(vehicleId: string) {
    const res = await fetch(`${this.baseUrl}/vehicles/${encodeURIComponent(vehicleId)}/position`, { // safe: ssrf
      headers: { authorization: `Bearer ${config.telematicsApiKey}` },
    })
    return res.json()
  }

  async odometer(vehicleId: string) {
    const agent = new https.Agent({ ca: readFileSync('/etc/fleet/telematics-ca.pem'), rejectUnauthorized: true }) // safe: tls-verification-disabled
    return new Promise((resolve, reject) => {
      https.get(`${this.baseUrl}/vehicles/${encodeURIComponent(vehicleId)}/odometer`, { agent }, (res) => resolve(res.statusCode)).on('error', reject) // safe: ssrf
    })
  }

  async forwardAlert(webhookUrl: string, alert: unknown) {
    await fetch(webhookUrl, { method: 'POST', body: JSON.stringify(alert), headers: { 'content-type': 'application/json' } }) // vuln: ssrf
  }
}
