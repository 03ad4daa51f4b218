/** What the dashboard shows about a repository beyond its scans: counts over its scans, and its summary. */
import { graphql } from '../../gql/index.ts'

export const RepositoryScanCountsQuery = graphql(`
  query RepositoryScanCounts($repoId: ID!, $limit: Int! = 30) {
    scans(repoId: $repoId, status: COMPLETED, limit: $limit) {
      id
      createdAt
      issueCounts {
        total
        newCount
        fixedCount
        bySeverity {
          severity
          count
        }
      }
    }
  }
`)

export const RepositorySummaryQuery = graphql(`
  query RepositorySummaryView($id: ID!) {
    repository(id: $id) {
      id
      repoName
      branchName
      summary {
        architecturePattern
        authLogicSummary
        trustBoundaries
        businessLogicFlows
        crossFileDependencies
        securityContext
        dataFlowAnalysis
        updatedAt
      }
    }
  }
`)
