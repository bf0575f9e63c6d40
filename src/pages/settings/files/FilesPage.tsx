import DownloadIcon from '@mui/icons-material/Download';
import {
  Button,
  Datagrid,
  FunctionField,
  List,
  Pagination,
  TextField,
  TextInput,
  useNotify,
  useRecordContext,
  useRefresh,
} from 'react-admin';
import { assets } from '../../../../resources/assets.ts';
import { DeleteRecordButton } from '../../../engine/form/DeleteRecordButton.tsx';
import { describeResource } from '../../../engine/data/descriptor.ts';
import { downloadFile } from '../../../engine/data/download.ts';
import { LocaleDateField } from '../../../engine/fields/LocaleDateField.tsx';
import { AssetThumbnail } from './AssetThumbnail.tsx';
import { UploadZone } from './UploadZone.tsx';
import { formatBytes } from '../../../../schemas/bytes.ts';
import { ASSETS_ENDPOINT, type Asset } from '../../../providers/uploadFile.ts';
import { KeyRows } from '../../../components/KeyRows.tsx';

const filters = [<TextInput key="name" source="name" alwaysOn />];

/**
 * `/settings/resources`: upload (drag and drop or pick, several at once, with progress), the list of files
 * with image thumbnails, download and delete.
 */
export function FilesPage() {
  const refresh = useRefresh();
  return (
    <List
      resource={assets.name}
      sort={{ field: 'id', order: 'DESC' }}
      perPage={15}
      filters={filters}
      pagination={<Pagination rowsPerPageOptions={[15, 50, 100]} />}
      actions={false}
      empty={false}
      aside={undefined}
    >
      <UploadZone onUploaded={() => refresh()} />
      <KeyRows>
        <Datagrid rowClick={false} bulkActionButtons={false}>
          <AssetThumbnail label="resources.assets.fields.preview" />
          <TextField source="name" />
          <FunctionField source="size" render={(record: Asset) => formatBytes(record.size)} />
          <TextField source="mime" />
          <LocaleDateField source="created_at" showTime />
          <DownloadButton />
          <DeleteRecordButton resource={describeResource(assets)} />
        </Datagrid>
      </KeyRows>
    </List>
  );
}

function DownloadButton() {
  const record = useRecordContext<Asset>();
  const notify = useNotify();
  if (!record) return null;
  const onClick = async () => {
    try {
      await downloadFile(`${ASSETS_ENDPOINT}/${record.id}/download`);
      notify('settings.files.downloaded', { type: 'success' });
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };
  return (
    <Button label="settings.files.download" onClick={() => void onClick()} data-row-primary>
      <DownloadIcon />
    </Button>
  );
}
