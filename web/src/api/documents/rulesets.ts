/** The dashboard's ruleset operations: list, one ruleset, create, update (links included), delete. */
import { graphql } from '../../gql/index.ts'

export const RulesetFields = graphql(`
  fragment RulesetFields on Ruleset {
    id
    name
    description
    rulesText
    createdBy
    updatedAt
    repositories {
      id
      repoName
      branchName
    }
  }
`)

export const RulesetsQuery = graphql(`
  query Rulesets {
    rulesets {
      ...RulesetFields
    }
  }
`)

export const RulesetQuery = graphql(`
  query Ruleset($id: ID!) {
    ruleset(id: $id) {
      ...RulesetFields
    }
    repositories {
      id
      repoName
      branchName
    }
  }
`)

export const LinkableRepositoriesQuery = graphql(`
  query LinkableRepositories {
    repositories {
      id
      repoName
      branchName
    }
  }
`)

export const CreateRulesetMutation = graphql(`
  mutation CreateRuleset($input: CreateRulesetInput!) {
    createRuleset(input: $input) {
      ...RulesetFields
    }
  }
`)

export const UpdateRulesetMutation = graphql(`
  mutation UpdateRuleset($id: ID!, $input: UpdateRulesetInput!) {
    updateRuleset(id: $id, input: $input) {
      ...RulesetFields
    }
  }
`)

export const DeleteRulesetMutation = graphql(`
  mutation DeleteRuleset($id: ID!) {
    deleteRuleset(id: $id)
  }
`)
