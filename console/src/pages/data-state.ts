// What the Data pages show: the database's catalog and the exported metadata, loaded together and reloaded after a
// change.
import { useCallback, useEffect, useState } from 'react';
import { exportMetadata, loadCatalog, type MetadataDoc, type PgCatalog } from '../model';

export interface DataState { catalog: PgCatalog; metadata: MetadataDoc }

export function useDataState(): [DataState | null, () => Promise<void>, unknown] {
  const [state, setState] = useState<DataState | null>(null);
  const [error, setError] = useState<unknown>(null);
  const reload = useCallback(async () => {
    try {
      const [catalog, metadata] = await Promise.all([loadCatalog(), exportMetadata()]);
      setState({ catalog, metadata });
      setError(null);
    } catch (e) {
      setError(e);
    }
  }, []);
  useEffect(() => void reload(), [reload]);
  return [state, reload, error];
}
