/** The dashboard's scan operations. */
import { graphql } from '../../gql/index.ts'

export const ScanFields = graphql(`
  fragment ScanFields on Scan {
    id
    repoId
    repoName
    branchName
    status
    scanType
    activeModels
    progress
    filesScanned
    filesTotal
    issuesCount
    error
    createdBy
    createdAt
    startedAt
    completedAt
  }
`)

export const ActiveScansQuery = graphql(`
  query ActiveScans {
    running: scans(status: RUNNING, limit: 100) {
      ...ScanFields
    }
    queued: scans(status: QUEUED, limit: 100) {
      ...ScanFields
    }
  }
`)

export const ScanEventsSubscription = graphql(`
  subscription ScanEvents {
    scanEvents {
      kind
      scan {
        ...ScanFields
      }
    }
  }
`)
