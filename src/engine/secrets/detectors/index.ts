/**
 * Every detector of the secrets analyzer, provider-specific first. Order does not decide
 * which of two overlapping matches is kept: priority does (see resolveOverlaps).
 */
import { genericDetector } from '../generic.ts'
import type { Detector } from '../types.ts'
import { chatDetectors } from './chat.ts'
import { cloudDetectors } from './cloud.ts'
import { connectionStringDetectors } from './connection-strings.ts'
import { jwtDetectors } from './jwt.ts'
import { mailDetectors } from './mail.ts'
import { paymentDetectors } from './payment.ts'
import { privateKeyDetectors } from './private-keys.ts'
import { sourceHostDetectors } from './source-hosts.ts'
import { tokenDetectors } from './tokens.ts'

export const DETECTORS: readonly Detector[] = [
  ...cloudDetectors,
  ...sourceHostDetectors,
  ...chatDetectors,
  ...paymentDetectors,
  ...mailDetectors,
  ...privateKeyDetectors,
  ...tokenDetectors,
  ...jwtDetectors,
  ...connectionStringDetectors,
  genericDetector,
]
