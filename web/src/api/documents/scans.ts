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
    scanEvents(kinds: [STATUS]) {
      kind
      scan {
        ...ScanFields
      }
    }
  }
`)

export const ScansQuery = graphql(`
  query Scans($status: ScanStatus, $limit: Int!, $offset: Int!) {
    scans(status: $status, limit: $limit, offset: $offset) {
      ...ScanFields
    }
  }
`)

export const RepositoryScansQuery = graphql(`
  query RepositoryScans($repoId: ID!) {
    scans(repoId: $repoId, limit: 100) {
      ...ScanFields
    }
    scanTypes {
      scanType
      analyzers
    }
  }
`)

export const ScanQuery = graphql(`
  query Scan($id: ID!) {
    scan(id: $id) {
      ...ScanFields
      comparison {
        newCount
        unchangedCount
        fixedCount
        base {
          id
          createdAt
        }
      }
    }
  }
`)

export const ScanResultsSummaryQuery = graphql(`
  query ScanResultsSummary($id: ID!) {
    scanResults(id: $id) {
      summary {
        totalIssues
        issuesBySeverity
        falsePositiveCount
        newCount
        unchangedCount
        fixedCount
      }
    }
  }
`)

export const CreateScanMutation = graphql(`
  mutation CreateScan($repoId: ID!, $input: CreateScanInput) {
    createScan(repoId: $repoId, input: $input) {
      ...ScanFields
    }
  }
`)

export const StopScanMutation = graphql(`
  mutation StopScan($id: ID!) {
    stopScan(id: $id) {
      message
      status
    }
  }
`)

export const ScanStatusSubscription = graphql(`
  subscription ScanStatus($scanId: ID!) {
    scanStatus(scanId: $scanId) {
      status
      progress
      filesScanned
      filesTotal
      issuesCount
      startedAt
      completedAt
      error
    }
  }
`)

export const ScanLogsSubscription = graphql(`
  subscription ScanLogs($scanId: ID!) {
    scanLogs(scanId: $scanId) {
      id
      timestamp
      level
      message
    }
  }
`)
