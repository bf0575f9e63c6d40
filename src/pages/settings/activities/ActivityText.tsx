import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { fieldsOf } from '../../../../resources/fields.ts';
import { DICTIONARY_OPTIONS_ENDPOINT } from '../../../engine/fields/useDictionaryChoices.ts';
import { httpClient } from '../../../providers/httpClient.ts';
import {
  actionLabel,
  changeLines,
  findResource,
  subjectOf,
  withheldText,
  type ActivityRow,
} from './describe.ts';

/** The action in words ("Created staff member", "登录"). */
export function ActivityAction({ row }: { row: ActivityRow }) {
  const { t, i18n } = useTranslation();
  return <>{actionLabel(t, row.action, i18n.language)}</>;
}

/** The subject: its representation linked to its page, "(deleted)" once gone, or its type and id. */
export function ActivitySubject({ row }: { row: ActivityRow }) {
  const { t } = useTranslation();
  const subject = subjectOf(t, row);
  if (!subject) return null;
  if (subject.deleted) {
    return (
      <span>
        {subject.text}{' '}
        <Typography component="span" variant="body2" color="text.secondary">
          ({t('app.activity.deleted')})
        </Typography>
      </span>
    );
  }
  return subject.to ? (
    <Link
      component={RouterLink}
      to={subject.to}
      onClick={(event) => event.stopPropagation()}
      data-row-primary
    >
      {subject.text}
    </Link>
  ) : (
    <span>{subject.text}</span>
  );
}

/** Who did it: the operator's name, or "System" for what the server did by itself. */
export function ActivityOperator({ row }: { row: ActivityRow }) {
  const { t } = useTranslation();
  const operator = row.operator;
  return <>{operator ? operator.name || operator.username : t('app.activity.system')}</>;
}

/**
 * Labels of the dictionary values the rows mention, per dictionary slug (one cached request per dictionary
 * a changed field uses; none for resources without dictionary fields).
 */
function useDictionaryLabels(rows: readonly ActivityRow[]): Record<string, Record<string, string>> {
  const slugs = [
    ...new Set(
      rows.flatMap((row) => {
        const resource = findResource(row.subject_type);
        const changed = Object.keys(row.changes ?? {});
        return resource
          ? fieldsOf(resource).flatMap((f) =>
              f.meta.dictionary && changed.includes(f.name) ? [f.meta.dictionary] : [],
            )
          : [];
      }),
    ),
  ];
  const answers = useQueries({
    queries: slugs.map((slug) => ({
      queryKey: ['activity', 'dictionary', slug],
      queryFn: () =>
        httpClient<{ data: { label: string; value: string }[] }>(
          `${DICTIONARY_OPTIONS_ENDPOINT}/${encodeURIComponent(slug)}`,
        ).catch(() => ({ data: [] })),
      staleTime: 5 * 60_000,
    })),
  });
  return Object.fromEntries(
    slugs.map((slug, i) => [
      slug,
      Object.fromEntries((answers[i]?.data?.data ?? []).map((entry) => [entry.value, entry.label])),
    ]),
  );
}

/**
 * A row's changes as "Field: before → after" lines; list values (roles, permissions) as what was added and
 * removed; fields whose values the reader may not see as one "Changed, values not shown: ..." line. `rows` are the rows of the page, so the dictionaries they need load once for all of them.
 */
export function ActivityChanges({ row, rows = [row] }: { row: ActivityRow; rows?: readonly ActivityRow[] }) {
  const { t, i18n } = useTranslation();
  const dictionaries = useDictionaryLabels(rows);
  const lines = changeLines(t, row, i18n.language, dictionaries);
  const withheld = withheldText(t, row);
  if (lines.length === 0 && !withheld) return null;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2 }}>
      {lines.map((line) => (
        <Typography key={line.field} component="li" variant="body2" sx={{ wordBreak: 'break-word' }}>
          <strong>{line.label}</strong>
          {': '}
          {line.added || line.removed ? (
            <>
              {line.added?.length ? `${t('app.activity.added')} ${line.added.join(', ')}` : null}
              {line.added?.length && line.removed?.length ? '; ' : null}
              {line.removed?.length ? `${t('app.activity.removed')} ${line.removed.join(', ')}` : null}
            </>
          ) : line.before === null ? (
            line.after
          ) : (
            `${line.before} → ${line.after}`
          )}
        </Typography>
      ))}
      {withheld ? (
        <Typography component="li" variant="body2" color="text.secondary" sx={{ wordBreak: 'break-word' }}>
          {withheld}
        </Typography>
      ) : null}
    </Box>
  );
}
