// pg_dump clean_output as the original: empty lines, comments, the preamble and notify triggers (row- and
// statement-level) dropped.
import test from 'ava';
import { cleanDump } from '../../src/http/routes/pgdump.js';

const DUMP = `--
-- PostgreSQL database dump
--

SET statement_timeout = 0;
SET client_encoding = 'UTF8';
SELECT pg_catalog.set_config('search_path', '', false);
SET default_tablespace = '';

CREATE SCHEMA public;
COMMENT ON SCHEMA public IS 'standard public schema';

--
-- Name: author; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.author (
    id integer NOT NULL,
    name text
);


ALTER TABLE ONLY public.author
    ADD CONSTRAINT author_pkey PRIMARY KEY (id);

CREATE TRIGGER notify_engine_author_ins_INSERT AFTER INSERT ON public.author FOR EACH ROW EXECUTE FUNCTION engine_views.notify_engine_author_ins_INSERT();
CREATE TRIGGER "notify_engine_author_upd_UPDATE" AFTER UPDATE ON public.author REFERENCING OLD TABLE AS engine_old_rows NEW TABLE AS engine_new_rows FOR EACH STATEMENT EXECUTE FUNCTION engine_views."notify_engine_author_upd_UPDATE"();

--
-- PostgreSQL database dump complete
--

`;

test('clean_output keeps only the statements, one line each, no blank lines', (t) => {
  t.is(
    cleanDump(DUMP),
    'CREATE TABLE public.author (\n    id integer NOT NULL,\n    name text\n);\n' +
      'ALTER TABLE ONLY public.author\n    ADD CONSTRAINT author_pkey PRIMARY KEY (id);\n',
  );
});

test('clean_output of a dump with nothing left is empty', (t) => {
  t.is(cleanDump('--\n-- nothing\n--\n\nSET row_security = off;\n\n'), '');
});
