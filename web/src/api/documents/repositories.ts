/** The dashboard's repository operations. */
import { graphql } from '../../gql/index.ts'

export const RepositoryFields = graphql(`
  fragment RepositoryFields on Repository {
    id
    repoName
    branchName
    sizeBytes
    fileCount
    languages
    createdBy
    createdAt
    updatedAt
    lastScanId
    lastScanStatus
  }
`)

export const RepositoriesQuery = graphql(`
  query Repositories {
    repositories {
      ...RepositoryFields
    }
  }
`)

export const RepositoryQuery = graphql(`
  query Repository($id: ID!) {
    repository(id: $id) {
      ...RepositoryFields
    }
  }
`)

export const UploadRepositoryMutation = graphql(`
  mutation UploadRepository($input: UploadRepositoryInput!) {
    uploadRepository(input: $input) {
      ...RepositoryFields
    }
  }
`)

export const DeleteRepositoryMutation = graphql(`
  mutation DeleteRepository($id: ID!) {
    deleteRepository(id: $id)
  }
`)
