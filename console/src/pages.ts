// The pages registry: the navigation bar and the router both read it, so a page is one entry here plus its module.
import type { ComponentType } from 'react';
import type { PageProps } from './router';
import { ApiPage } from './pages/api';
import { DataPage } from './pages/data';
import { PermissionsPage } from './pages/permissions';
import { EventsPage } from './pages/events';
import { ScheduledPage } from './pages/scheduled';
import { ActionsPage, RemoteSchemasPage } from './pages/families';
import { MetadataPage } from './pages/metadata';
import { HistoryPage } from './pages/history';

export interface Page { id: string; title: string; component: ComponentType<PageProps> }

export const PAGES: Page[] = [
  { id: 'api', title: 'API', component: ApiPage },
  { id: 'data', title: 'Data', component: DataPage },
  { id: 'permissions', title: 'Permissions', component: PermissionsPage },
  { id: 'events', title: 'Events', component: EventsPage },
  { id: 'scheduled', title: 'Scheduled', component: ScheduledPage },
  { id: 'actions', title: 'Actions', component: ActionsPage },
  { id: 'remote-schemas', title: 'Remote Schemas', component: RemoteSchemasPage },
  { id: 'metadata', title: 'Metadata', component: MetadataPage },
  { id: 'history', title: 'History', component: HistoryPage },
];
