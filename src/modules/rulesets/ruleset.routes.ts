/** REST rows of rulesets. */
import { z } from 'zod'
import { defineRoute } from '../../http/rest/route-table.ts'
import { idParam } from '../../http/rest/validation.ts'
import { createRulesetBody, updateRulesetBody } from './ruleset.validation.ts'

const RULESET_FIELDS = /* GraphQL */ `
  fragment RulesetFields on Ruleset {
    id
    name
    description
    rules_text: rulesText
    org_id: orgId
    repo_ids: repoIds
    created_at: createdAt
    updated_at: updatedAt
    created_by: createdBy
  }
`
const rulesetParams = z.object({ ruleset_id: idParam('ruleset') })

export const rulesetRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/rulesets',
    summary: 'Create a ruleset',
    tags: ['rulesets'],
    body: createRulesetBody,
    operation: `mutation CreateRuleset($input: CreateRulesetInput!) { createRuleset(input: $input) { ...RulesetFields } } ${RULESET_FIELDS}`,
    variables: ({ body }) => ({ input: { name: body.name, rulesText: body.rules_text, description: body.description, repoIds: body.repo_ids } }),
    status: 201,
    errors: [404, 409],
  }),
  defineRoute({
    method: 'get',
    path: '/api/rulesets',
    summary: 'List rulesets',
    tags: ['rulesets'],
    operation: `query Rulesets { rulesets { ...RulesetFields } } ${RULESET_FIELDS}`,
    status: 200,
  }),
  defineRoute({
    method: 'get',
    path: '/api/rulesets/:ruleset_id',
    summary: 'Get a ruleset',
    tags: ['rulesets'],
    params: rulesetParams,
    operation: `query Ruleset($id: ID!) { ruleset(id: $id) { ...RulesetFields } } ${RULESET_FIELDS}`,
    variables: ({ params }) => ({ id: params.ruleset_id }),
    status: 200,
    errors: [400, 404],
  }),
  defineRoute({
    method: 'patch',
    path: '/api/rulesets/:ruleset_id',
    summary: 'Update a ruleset',
    tags: ['rulesets'],
    params: rulesetParams,
    body: updateRulesetBody,
    operation: `mutation UpdateRuleset($id: ID!, $input: UpdateRulesetInput!) { updateRuleset(id: $id, input: $input) { ...RulesetFields } } ${RULESET_FIELDS}`,
    variables: ({ params, body }) => ({ id: params.ruleset_id, input: { name: body.name, rulesText: body.rules_text, description: body.description, repoIds: body.repo_ids } }),
    status: 200,
    errors: [400, 404, 409],
  }),
  defineRoute({
    method: 'delete',
    path: '/api/rulesets/:ruleset_id',
    summary: 'Delete a ruleset',
    tags: ['rulesets'],
    params: rulesetParams,
    operation: `mutation DeleteRuleset($id: ID!) { deleteRuleset(id: $id) }`,
    variables: ({ params }) => ({ id: params.ruleset_id }),
    status: 204,
    errors: [400, 404],
  }),
]
