// The facts of an organization: its creation and the API keys issued and revoked under it (`organization-<id>`).
export type KeyScope = 'organization' | 'project';

export type OrganizationCreated = { type: 'OrganizationCreated'; data: { organizationId: number; name: string; created: string } };
export type ApiKeyIssued = {
  type: 'ApiKeyIssued';
  data: { keyId: string; keyHash: string; scope: KeyScope; projectId: number | null; label: string; created: string };
};
export type ApiKeyRevoked = { type: 'ApiKeyRevoked'; data: { keyId: string; keyHash: string; revoked: string } };
export type OrganizationEvent = OrganizationCreated | ApiKeyIssued | ApiKeyRevoked;

export const organizationStream = (organizationId: number) => `organization-${organizationId}`;
