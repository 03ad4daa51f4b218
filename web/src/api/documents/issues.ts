/** The dashboard's issue operations: the sorted, filtered list, one issue's page, and triage. */
import { graphql } from '../../gql/index.ts'

export const IssueRowFields = graphql(`
  fragment IssueRowFields on Issue {
    id
    title
    severity
    category
    ruleId
    filePath
    lineNumber
    repoId
    repoName
    scanId
    baselineState
    falsePositive
    exploitable
    createdAt
  }
`)

export const IssuesQuery = graphql(`
  query Issues($filter: IssueFilter, $sort: IssueSort, $page: Int! = 1, $perPage: Int! = 25) {
    issues(filter: $filter, sort: $sort, page: $page, perPage: $perPage) {
      total
      page
      perPage
      totalPages
      issues {
        ...IssueRowFields
      }
    }
  }
`)

/** What the filters offer: the organization's repositories and the categories it has issues in. */
export const IssueFilterChoicesQuery = graphql(`
  query IssueFilterChoices {
    repositories {
      id
      repoName
      branchName
    }
    issuesSummary {
      issuesByCategory
    }
  }
`)

export const IssueNoteFields = graphql(`
  fragment IssueNoteFields on IssueNote {
    text
    author
    createdAt
  }
`)

export const TriageEntryFields = graphql(`
  fragment TriageEntryFields on TriageEntry {
    author
    createdAt
    falsePositive
    exploitable
    severity
    note
  }
`)

export const IssueQuery = graphql(`
  query Issue($id: ID!) {
    issue(id: $id) {
      ...IssueRowFields
      description
      explanation
      columnStart
      columnEnd
      confidence
      cvssScore
      cweIds
      owaspCategory
      tags
      modelUsed
      remediation
      remediationCode
      firstSeenAt
      scanCreatedAt
      codeLines {
        number
        text
        inMatch
      }
      references {
        kind
        id
        title
        url
      }
      trace {
        sanitized
        source {
          filePath
          lineNumber
          code
          note
          kind
        }
        steps {
          filePath
          lineNumber
          code
          note
        }
        sink {
          filePath
          lineNumber
          code
          note
          kind
        }
      }
      triageHistory {
        ...TriageEntryFields
      }
    }
  }
`)

export const UpdateIssueMutation = graphql(`
  mutation UpdateIssue($id: ID!, $input: UpdateIssueInput!) {
    updateIssue(id: $id, input: $input) {
      ...IssueRowFields
      notes {
        ...IssueNoteFields
      }
    }
  }
`)

export const BulkUpdateIssuesMutation = graphql(`
  mutation BulkUpdateIssues($input: BulkUpdateIssuesInput!) {
    bulkUpdateIssues(input: $input) {
      updatedCount
      failedCount
      failedIssues {
        issueId
        error
      }
      updatedIssues {
        ...IssueRowFields
      }
    }
  }
`)
