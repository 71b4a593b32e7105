/* sluice's SQL grammar (Lemon, LALR(1)). Syntax only: the actions build the
 * tree of parser/ast.h through the pb_* builders of parser/ast_build.c and
 * never look at a catalog. The tokenizer (parser/tokenize.c) pushes tokens
 * in; lemon writes grammar.c/grammar.h into the build tree and a conflict
 * fails the build.
 *
 * Keywords come from parser/keywords.def. Non-reserved keywords fall back to
 * ID (%fallback below) where the grammar has no use for them; words that
 * LALR(1) cannot decide (TIMESTAMP '..' vs a column named timestamp) are
 * classified by the tokenizer, which peeks ahead. Nodes live in an arena, so
 * no %destructor is needed. */

%name parse_lemon
%token_prefix TK_
%token_type {parse_token_t}
%default_type {void *}
%extra_context {parse_ctx_t *ctx}
%stack_size 1000

%syntax_error {
    pb_syntax_error(ctx, &TOKEN);
    (void)yymajor;
}
%stack_overflow {
    pb_stack_overflow(ctx);
}

%include {
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "parse_int.h"
}

/* Tokens made by the tokenizer alone (punctuation and literals); keyword
 * tokens are declared by their use below. */
%token SEMI LP RP COMMA DOT STAR PLUS MINUS SLASH PERCENT CONCAT EQ NE LT LE GT GE
       TYPECAST COLON ID STRING INTEGER FLOAT PARAM NOT_LA POS_IN REGEX LBRACKET RBRACKET.

/* Every U keyword of keywords.def (checked by a unit test). */
%fallback ID ABORT ALTER ASC AVAILABLE AWAIT BEGIN CHARACTERISTICS CHECKPOINT COMMIT COMMITTED
    CONTINUOUS DEALLOCATE DEFAULT DEFERRABLE DELAY
    DELETE DESC DESCRIBE DISCARD DOUBLE DROP END ESCAPE EXECUTE EXPLAIN FIRST FOR IF INSERT ISOLATION
    LAST LEVEL LOCAL MODE NOW NULLS OF ONCE ONLY OPERATOR OPTIONS OUTPUT OVER PARTITION
    PRECISION PREPARE PROCESSING PROGRESS
    QUERIES QUERY READ RECENT RELEASE REPEATABLE RESET ROLLBACK SAVEPOINT SERIALIZABLE SESSION
    SET SHOW SINK START STOP STREAM STREAMS
    STRUCT TABLE TABLES TIME TIMEOUT TO TRANSACTION TRIGGER UNCOMMITTED UNIT VALUES WITH WITHIN
    WORK WRITE ZONE
    CURRENT FOLLOWING PRECEDING RANGE ROW ROWS UNBOUNDED
    COPY FORCE PROGRAM STDIN STDOUT.

/* PostgreSQL's operator precedence, lowest first. NOT_LA is NOT before
 * IN/LIKE/ILIKE/BETWEEN (decided by the tokenizer), as in PostgreSQL;
 * ESCAPE sits just above LIKE so that `a LIKE b ESCAPE c` keeps its ESCAPE.
 * SUBQ_EXPR < SUBQ_SELECT decide `((SELECT 1))`, which is both a
 * parenthesised select and a parenthesised scalar subquery: the inner
 * parentheses stay a select (the same value; and `x IN ((SELECT ...))`
 * stays an IN subquery). */
%left OR.
%left AND.
%right NOT.
%nonassoc IS.
%nonassoc EQ NE LT GT LE GE.
%nonassoc BETWEEN IN LIKE ILIKE NOT_LA.
%nonassoc ESCAPE.
%left CONCAT REGEX OPERATOR.
%left PLUS MINUS.
%left STAR SLASH PERCENT.
%left COLLATE.
%right UMINUS.
%left TYPECAST.
%nonassoc SUBQ_EXPR.
%nonassoc SUBQ_SELECT.

/* ---- statement list ------------------------------------------------------ */

input ::= cmdlist.
cmdlist ::= cmdlist ecmd.
cmdlist ::= ecmd.
ecmd ::= SEMI.
ecmd ::= cmdx SEMI.
/* Reduced with the terminating SEMI as look-ahead, when the statement's
 * last token is known. */
cmdx ::= cmd(S). { pb_add_stmt(ctx, S); }

%type cmd {ast_stmt_t *}

/* ---- common pieces -------------------------------------------------------- */

%type ident {ast_ident_t *}
ident(A) ::= ID(T). { A = pb_ident(ctx, &T); }

/* A column label after AS: any identifier or keyword. */
%type label {ast_ident_t *}
label(A) ::= ident(A).
label(A) ::= ALL|AND|ANY|ARRAY|AS|BETWEEN|BOTH|BY|CASE|CAST|COLLATE|CREATE|CROSS|DATE|DISTINCT|ELSE|EXISTS|FALSE|FROM|FULL|GROUP|HAVING|ILIKE|IN|INNER|INTERVAL|INTO|IS|JOIN|LEADING|LEFT|LIKE|LIMIT|NATURAL|NOT|NULL|OFFSET|ON|OR|ORDER|OUTER|RIGHT|SELECT|THEN|TIMESTAMP|TRAILING|TRUE|UNION|USING|WATERMARK|WHEN|WHERE(T). {
    A = pb_ident(ctx, &T);
}

%type dotted {ast_ident_list_t}
dotted(A) ::= ident(I). { memset(&A, 0, sizeof A); PB_ADD(ctx, A, I); }
dotted(A) ::= dotted(A) DOT ident(I). { PB_ADD(ctx, A, I); }

%type identlist {ast_ident_list_t}
identlist(A) ::= ident(I). { memset(&A, 0, sizeof A); PB_ADD(ctx, A, I); }
identlist(A) ::= identlist(A) COMMA ident(I). { PB_ADD(ctx, A, I); }

%type ifnotexists {int}
ifnotexists(A) ::= . { A = 0; }
ifnotexists(A) ::= IF NOT EXISTS. { A = 1; }

%type ifexists {int}
ifexists(A) ::= . { A = 0; }
ifexists(A) ::= IF EXISTS. { A = 1; }

/* OPTIONS (key 'value', 'dotted.key' = 'value', a.b.c 'x', n 5, flag true) */
%type options {ast_option_list_t}
options(A) ::= OPTIONS LP optlist(X) RP. { A = X; }

%type options_opt {ast_option_list_t}
options_opt(A) ::= . { memset(&A, 0, sizeof A); }
options_opt(A) ::= options(A).

%type optlist {ast_option_list_t}
optlist(A) ::= . { memset(&A, 0, sizeof A); }
optlist(A) ::= optitems(A).

%type optitems {ast_option_list_t}
optitems(A) ::= option(O). { memset(&A, 0, sizeof A); PB_ADD(ctx, A, O); }
optitems(A) ::= optitems(A) COMMA option(O). { PB_ADD(ctx, A, O); }

%type option {ast_option_t *}
option(A) ::= optkey(K) opteq optval(V). {
    A = V;
    A->key = K->name;
    A->key_quoted = K->quoted;
    A->pos = K->pos;
}

/* The key as an identifier: name and quoted flag; pos = first byte. */
%type optkey {ast_ident_t *}
optkey(A) ::= dotted(D). {
    A = D.items[0];
    if (D.n > 1)
        A = pb_ident_make(ctx, pb_join_dotted(ctx, &D), 0, D.items[0]->pos, D.items[D.n - 1]->end);
}
optkey(A) ::= STRING(T). { A = pb_ident_make(ctx, (char *)T.text, 1, T.pos, pb_tok_end(&T)); }

opteq ::= .
opteq ::= EQ.

%type optval {ast_option_t *}
optval(A) ::= STRING(T). { A = pb_option(ctx, NULL, 0, 0, &T, AST_OPTVAL_STRING, NULL); }
optval(A) ::= INTEGER|FLOAT(T). { A = pb_option(ctx, NULL, 0, 0, &T, AST_OPTVAL_NUMBER, NULL); }
optval(A) ::= MINUS(M) INTEGER|FLOAT(T). { A = pb_option(ctx, NULL, 0, 0, &T, AST_OPTVAL_NUMBER, &M); }
optval(A) ::= TRUE|FALSE(T). { A = pb_option(ctx, NULL, 0, 0, &T, AST_OPTVAL_BOOL, NULL); }

/* Interval arguments of WATERMARK, TRIGGER and AWAIT: '15 minutes' or an
 * INTERVAL literal. */
%type ival {ast_expr_t *}
ival(A) ::= STRING(T). { A = pb_literal(ctx, AST_LIT_STRING, &T); }
ival(A) ::= interval_lit(A).

%type interval_lit {ast_expr_t *}
interval_lit(A) ::= INTERVAL(K) STRING(V). { A = pb_typed_literal(ctx, AST_LIT_INTERVAL, &K, &V, NULL); }
interval_lit(A) ::= INTERVAL(K) STRING(V) UNIT(U). { A = pb_typed_literal(ctx, AST_LIT_INTERVAL, &K, &V, &U); }
interval_lit(A) ::= INTERVAL(K) INTEGER|FLOAT(V) UNIT(U). { A = pb_typed_literal(ctx, AST_LIT_INTERVAL, &K, &V, &U); }

/* WATERMARK col DELAY OF interval */
%type watermark {ast_watermark_t *}
watermark(A) ::= WATERMARK(K) dotted(C) DELAY OF ival(D). {
    A = pb_watermark(ctx, &K, pb_column(ctx, C), D);
}

%type watermark_opt {ast_watermark_t *}
watermark_opt(A) ::= . { A = NULL; }
watermark_opt(A) ::= watermark(A).

/* ---- types ---------------------------------------------------------------- */

%type typename {ast_type_t *}
typename(A) ::= ident(I). { A = pb_type(ctx, I->name, I->quoted, I->pos, I->end); }
/* pg_catalog.text, as PostgreSQL clients qualify type names (ast_pg.c) */
typename(A) ::= ident(S) DOT ident(I). { A = pb_qualified_type(ctx, S, I); }
/* int2[]: an array type (sluice keeps arrays in their text form) */
typename(A) ::= ident(I) LBRACKET RBRACKET(R). { A = pb_array_type(ctx, NULL, I, &R); }
typename(A) ::= ident(S) DOT ident(I) LBRACKET RBRACKET(R). { A = pb_array_type(ctx, S, I, &R); }
typename(A) ::= ident(I) LP INTEGER(P) RP(E). {
    A = pb_type(ctx, I->name, I->quoted, I->pos, pb_tok_end(&E));
    A->nmods = 1;
    A->mods[0] = strtol(P.text, NULL, 10);
}
typename(A) ::= ident(I) LP INTEGER(P) COMMA INTEGER(S) RP(E). {
    A = pb_type(ctx, I->name, I->quoted, I->pos, pb_tok_end(&E));
    A->nmods = 2;
    A->mods[0] = strtol(P.text, NULL, 10);
    A->mods[1] = strtol(S.text, NULL, 10);
}
typename(A) ::= DOUBLE(K). { A = pb_type(ctx, "double", 0, K.pos, pb_tok_end(&K)); }
typename(A) ::= DOUBLE(K) PRECISION(E). { A = pb_type(ctx, "double precision", 0, K.pos, pb_tok_end(&E)); }
typename(A) ::= STRUCT(K) LT fieldlist(F) GT(E). {
    A = pb_type(ctx, "struct", 0, K.pos, pb_tok_end(&E));
    A->fields = F;
}

%type fieldlist {ast_field_list_t}
fieldlist(A) ::= field(F). { memset(&A, 0, sizeof A); PB_ADD(ctx, A, F); }
fieldlist(A) ::= fieldlist(A) COMMA field(F). { PB_ADD(ctx, A, F); }

%type field {ast_field_t *}
field(A) ::= label(N) COLON typename(T). {
    A = SL_NEW(ctx->a, ast_field_t); A->name = N; A->type = T; A->pos = N->pos; A->end = T->end;
}
field(A) ::= ident(N) typename(T). {
    A = SL_NEW(ctx->a, ast_field_t); A->name = N; A->type = T; A->pos = N->pos; A->end = T->end;
}

%type coldef {ast_column_def_t *}
coldef(A) ::= ident(N) typename(T) nullability(X). {
    A = SL_NEW(ctx->a, ast_column_def_t);
    A->name = N; A->type = T; A->not_null = X > 0;
    A->pos = N->pos; A->end = X ? ctx->prev_end : T->end;
}

/* 0 = not written, 1 = NOT NULL, -1 = NULL */
%type nullability {int}
nullability(A) ::= . { A = 0; }
nullability(A) ::= NOT NULL. { A = 1; }
nullability(A) ::= NULL. { A = -1; }

%type coldeflist {ast_column_def_list_t}
coldeflist(A) ::= coldef(C). { memset(&A, 0, sizeof A); PB_ADD(ctx, A, C); }
coldeflist(A) ::= coldeflist(A) COMMA coldef(C). { PB_ADD(ctx, A, C); }

%type coldefs_opt {pb_coldefs_t}
coldefs_opt(A) ::= . { memset(&A, 0, sizeof A); }
coldefs_opt(A) ::= LP coldeflist(L) RP. { A.has = 1; A.list = L; }

/* ---- CREATE STREAM / TABLE / QUERY ---------------------------------------- */

cmd(A) ::= CREATE(K) STREAM ifnotexists(E) ident(N) coldefs_opt(C) USING ident(U) options_opt(O) watermark_opt(W). {
    A = pb_stmt(ctx, AST_STMT_CREATE_STREAM, K.pos);
    A->create_stream.name = N;
    A->create_stream.if_not_exists = E;
    A->create_stream.has_columns = C.has;
    A->create_stream.columns = C.list;
    A->create_stream.connector = U;
    A->create_stream.options = O;
    A->create_stream.watermark = W;
}

cmd(A) ::= CREATE(K) TABLE ifnotexists(E) ident(N) LP coldeflist(C) RP table_using(U). {
    A = pb_stmt(ctx, AST_STMT_CREATE_TABLE, K.pos);
    A->create_table.name = N;
    A->create_table.if_not_exists = E;
    A->create_table.has_columns = 1;
    A->create_table.columns = C;
    A->create_table.format = U.format;
    A->create_table.options = U.options;
}
cmd(A) ::= CREATE(K) TABLE ifnotexists(E) ident(N) USING ident(F) options_opt(O). {
    A = pb_stmt(ctx, AST_STMT_CREATE_TABLE, K.pos);
    A->create_table.name = N;
    A->create_table.if_not_exists = E;
    A->create_table.format = F;
    A->create_table.options = O;
}

%type table_using {pb_using_t}
table_using(A) ::= . { memset(&A, 0, sizeof A); }
table_using(A) ::= USING ident(F) options_opt(O). { A.format = F; A.options = O; }

cmd(A) ::= create_query(A).

%type create_query {ast_stmt_t *}
create_query(A) ::= CREATE(K) QUERY ifnotexists(E) ident(N) qclauses(Q) AS select(S). {
    A = Q.s;
    A->pos = K.pos;
    A->end = S->end;
    A->create_query.name = N;
    A->create_query.if_not_exists = E;
    A->create_query.select = S;
}

/* Clauses in any order, each at most once. OPTIONS right after SINK kind
 * are the sink's; any other OPTIONS clause is the query's. */
%type qclauses {pb_qclauses_t}
qclauses(A) ::= . { A.s = pb_stmt(ctx, AST_STMT_CREATE_QUERY, 0); A.after_sink = 0; A.has_options = 0; }
qclauses(A) ::= qclauses(A) SINK(K) ident(N). {
    if (!pb_qclause_dup(ctx, A.s->create_query.sink != NULL, "SINK", &K))
        A.s->create_query.sink = N;
    A.after_sink = 1;
}
qclauses(A) ::= qclauses(A) OPTIONS(K) LP optlist(O) RP. {
    ast_create_query_t *q = &A.s->create_query;
    if (A.after_sink)
        q->sink_options = O;
    else if (!pb_qclause_dup(ctx, A.has_options, "OPTIONS", &K))
        q->options = O;
    if (!A.after_sink) A.has_options = 1;
    A.after_sink = 0;
}
qclauses(A) ::= qclauses(A) OUTPUT(K) MODE ident(M). {
    output_mode_t m = pb_output_mode(ctx, M);
    if (!pb_qclause_dup(ctx, A.s->create_query.output_mode != 0, "OUTPUT MODE", &K))
        A.s->create_query.output_mode = m;
    A.after_sink = 0;
}
qclauses(A) ::= qclauses(A) TRIGGER(K) trigger(T). {
    ast_create_query_t *q = &A.s->create_query;
    if (!pb_qclause_dup(ctx, q->trigger != AST_TRIGGER_DEFAULT, "TRIGGER", &K)) {
        q->trigger = T.kind;
        q->trigger_interval = T.interval;
        q->trigger_pos = K.pos;
        q->trigger_end = ctx->prev_end;
    }
    A.after_sink = 0;
}
qclauses(A) ::= qclauses(A) CHECKPOINT(K) STRING(P). {
    if (!pb_qclause_dup(ctx, A.s->create_query.checkpoint != NULL, "CHECKPOINT", &K))
        A.s->create_query.checkpoint = (char *)P.text;
    A.after_sink = 0;
}

%type trigger {pb_trigger_t}
trigger(A) ::= PROCESSING TIME ival(I). { A.kind = AST_TRIGGER_PROCESSING_TIME; A.interval = I; }
trigger(A) ::= AVAILABLE NOW. { A.kind = AST_TRIGGER_AVAILABLE_NOW; A.interval = NULL; }
trigger(A) ::= ONCE. { A.kind = AST_TRIGGER_ONCE; A.interval = NULL; }
trigger(A) ::= CONTINUOUS ival(I). { A.kind = AST_TRIGGER_CONTINUOUS; A.interval = I; }

/* ---- ALTER ------------------------------------------------------------------ */

cmd(A) ::= ALTER(K) STREAM ident(N) SET options(O). {
    A = pb_stmt(ctx, AST_STMT_ALTER, K.pos);
    A->alter.object = AST_OBJ_STREAM;
    A->alter.name = N;
    A->alter.options = O;
}
cmd(A) ::= ALTER(K) QUERY ident(N) SET options(O). {
    A = pb_stmt(ctx, AST_STMT_ALTER, K.pos);
    A->alter.object = AST_OBJ_QUERY;
    A->alter.name = N;
    A->alter.options = O;
}
cmd(A) ::= ALTER(K) QUERY ident(N) SET TRIGGER(R) trigger(T). {
    A = pb_stmt(ctx, AST_STMT_ALTER, K.pos);
    A->alter.object = AST_OBJ_QUERY;
    A->alter.name = N;
    A->alter.trigger = T.kind;
    A->alter.trigger_interval = T.interval;
    A->alter.trigger_pos = R.pos;
    A->alter.trigger_end = ctx->prev_end;
}

/* ---- DROP / INSERT / DELETE ------------------------------------------------ */

cmd(A) ::= DROP(K) objkind(O) ifexists(E) ident(N). {
    A = pb_stmt(ctx, AST_STMT_DROP, K.pos);
    A->drop.object = (ast_object_t)O;
    A->drop.if_exists = E;
    A->drop.name = N;
}
%type objkind {int}
objkind(A) ::= QUERY. { A = AST_OBJ_QUERY; }
objkind(A) ::= STREAM. { A = AST_OBJ_STREAM; }
objkind(A) ::= TABLE. { A = AST_OBJ_TABLE; }

cmd(A) ::= INSERT(K) INTO ident(T) select(Q). {
    A = pb_stmt(ctx, AST_STMT_INSERT, K.pos);
    A->insert.table = T;
    A->insert.query = Q;
}
cmd(A) ::= INSERT(K) INTO ident(T) LP identlist(C) RP select(Q). {
    A = pb_stmt(ctx, AST_STMT_INSERT, K.pos);
    A->insert.table = T;
    A->insert.columns = C;
    A->insert.query = Q;
}

cmd(A) ::= DELETE(K) FROM ident(T) where_opt(W). {
    A = pb_stmt(ctx, AST_STMT_DELETE, K.pos);
    A->del.table = T;
    A->del.where = W;
}

/* ---- SHOW / DESCRIBE / EXPLAIN / query control ----------------------------- */

cmd(A) ::= SHOW(K) QUERIES. { A = pb_stmt(ctx, AST_STMT_SHOW, K.pos); A->show.what = AST_SHOW_QUERIES; }
cmd(A) ::= SHOW(K) STREAMS. { A = pb_stmt(ctx, AST_STMT_SHOW, K.pos); A->show.what = AST_SHOW_STREAMS; }
cmd(A) ::= SHOW(K) TABLES. { A = pb_stmt(ctx, AST_STMT_SHOW, K.pos); A->show.what = AST_SHOW_TABLES; }
cmd(A) ::= SHOW(K) PROGRESS ident(N). {
    A = pb_stmt(ctx, AST_STMT_SHOW, K.pos); A->show.what = AST_SHOW_PROGRESS; A->show.name = N;
}
cmd(A) ::= SHOW(K) RECENT PROGRESS ident(N). {
    A = pb_stmt(ctx, AST_STMT_SHOW, K.pos); A->show.what = AST_SHOW_RECENT_PROGRESS; A->show.name = N;
}
cmd(A) ::= SHOW(K) dotted(D). {
    A = pb_stmt(ctx, AST_STMT_SHOW, K.pos); A->show.what = AST_SHOW_VARIABLE;
    A->show.name = D.items[0];
    if (D.n > 1)
        A->show.name = pb_ident_make(ctx, pb_join_dotted(ctx, &D), 0, D.items[0]->pos, D.items[D.n - 1]->end);
}
cmd(A) ::= SHOW(K) ALL(W). {
    A = pb_stmt(ctx, AST_STMT_SHOW, K.pos); A->show.what = AST_SHOW_VARIABLE; A->show.name = pb_ident(ctx, &W);
}
cmd(A) ::= SHOW(K) TIME(W) ZONE(E). {
    A = pb_stmt(ctx, AST_STMT_SHOW, K.pos); A->show.what = AST_SHOW_VARIABLE;
    A->show.name = pb_ident_make(ctx, "timezone", 0, W.pos, pb_tok_end(&E));
}
cmd(A) ::= SHOW(K) TRANSACTION(W) ISOLATION LEVEL(E). {
    A = pb_stmt(ctx, AST_STMT_SHOW, K.pos); A->show.what = AST_SHOW_VARIABLE;
    A->show.name = pb_ident_make(ctx, "transaction_isolation", 0, W.pos, pb_tok_end(&E));
}

cmd(A) ::= DESCRIBE(K) ident(N). { A = pb_stmt(ctx, AST_STMT_DESCRIBE, K.pos); A->object_name = N; }

cmd(A) ::= EXPLAIN(K) select(Q). {
    A = pb_stmt(ctx, AST_STMT_EXPLAIN, K.pos);
    A->explain = pb_stmt(ctx, AST_STMT_SELECT, Q->pos);
    A->explain->end = Q->end;
    A->explain->select = Q;
}
cmd(A) ::= EXPLAIN(K) create_query(Q). { A = pb_stmt(ctx, AST_STMT_EXPLAIN, K.pos); A->explain = Q; }

cmd(A) ::= START(K) QUERY ident(N). { A = pb_stmt(ctx, AST_STMT_START_QUERY, K.pos); A->object_name = N; }
cmd(A) ::= STOP(K) QUERY ident(N). { A = pb_stmt(ctx, AST_STMT_STOP_QUERY, K.pos); A->object_name = N; }
cmd(A) ::= AWAIT(K) QUERY ident(N). { A = pb_stmt(ctx, AST_STMT_AWAIT_QUERY, K.pos); A->await.name = N; }
cmd(A) ::= AWAIT(K) QUERY ident(N) TIMEOUT ival(T). {
    A = pb_stmt(ctx, AST_STMT_AWAIT_QUERY, K.pos); A->await.name = N; A->await.timeout = T;
}

/* ---- transactions and settings (driver compatibility) ---------------------- */

cmd(A) ::= BEGIN(K) tx_opt tx_modes_opt(M). { A = pb_stmt(ctx, AST_STMT_BEGIN, K.pos); A->txn = M; }
cmd(A) ::= START(K) TRANSACTION tx_modes_opt(M). { A = pb_stmt(ctx, AST_STMT_BEGIN, K.pos); A->txn = M; }
cmd(A) ::= COMMIT(K) tx_opt. { A = pb_stmt(ctx, AST_STMT_COMMIT, K.pos); }
cmd(A) ::= END(K) tx_opt. { A = pb_stmt(ctx, AST_STMT_COMMIT, K.pos); }
cmd(A) ::= ROLLBACK(K) tx_opt. { A = pb_stmt(ctx, AST_STMT_ROLLBACK, K.pos); }
cmd(A) ::= ABORT(K) tx_opt. { A = pb_stmt(ctx, AST_STMT_ROLLBACK, K.pos); }
cmd(A) ::= ROLLBACK(K) tx_opt TO savepoint_opt ident(N). {
    A = pb_stmt(ctx, AST_STMT_ROLLBACK, K.pos); A->txn.savepoint = N;
}
cmd(A) ::= SAVEPOINT(K) ident(N). { A = pb_stmt(ctx, AST_STMT_SAVEPOINT, K.pos); A->txn.savepoint = N; }
cmd(A) ::= RELEASE(K) savepoint_opt ident(N). { A = pb_stmt(ctx, AST_STMT_RELEASE, K.pos); A->txn.savepoint = N; }
cmd(A) ::= SET(K) TRANSACTION tx_modes(M). { A = pb_stmt(ctx, AST_STMT_SET_TRANSACTION, K.pos); A->txn = M; }
cmd(A) ::= SET(K) SESSION CHARACTERISTICS AS TRANSACTION tx_modes(M). {
    A = pb_stmt(ctx, AST_STMT_SET_TRANSACTION, K.pos); A->txn = M; A->txn.session = 1;
}
tx_opt ::= .
tx_opt ::= TRANSACTION.
tx_opt ::= WORK.
savepoint_opt ::= .
savepoint_opt ::= SAVEPOINT.

/* Transaction modes, separated by commas or spaces; a later one wins. */
%type tx_modes_opt {ast_txn_stmt_t}
tx_modes_opt(A) ::= . { memset(&A, 0, sizeof A); }
tx_modes_opt(A) ::= tx_modes(M). { A = M; }
%type tx_modes {ast_txn_stmt_t}
tx_modes(A) ::= tx_mode(M). { A = M; }
tx_modes(A) ::= tx_modes(A) tx_mode(M). { pb_txn_merge(&A, &M); }
tx_modes(A) ::= tx_modes(A) COMMA tx_mode(M). { pb_txn_merge(&A, &M); }
%type tx_mode {ast_txn_stmt_t}
tx_mode(A) ::= ISOLATION LEVEL iso_level(L). { memset(&A, 0, sizeof A); A.isolation = L; }
tx_mode(A) ::= READ ONLY. { memset(&A, 0, sizeof A); A.read_only = "on"; }
tx_mode(A) ::= READ WRITE. { memset(&A, 0, sizeof A); A.read_only = "off"; }
tx_mode(A) ::= DEFERRABLE. { memset(&A, 0, sizeof A); A.deferrable = "on"; }
tx_mode(A) ::= NOT DEFERRABLE. { memset(&A, 0, sizeof A); A.deferrable = "off"; }
%type iso_level {const char *}
iso_level(A) ::= SERIALIZABLE. { A = "serializable"; }
iso_level(A) ::= REPEATABLE READ. { A = "repeatable read"; }
iso_level(A) ::= READ COMMITTED. { A = "read committed"; }
iso_level(A) ::= READ UNCOMMITTED. { A = "read uncommitted"; }

cmd(A) ::= SET(K) set_scope(S) dotted(D) TO|EQ set_values(V). {
    A = pb_stmt(ctx, AST_STMT_SET, K.pos);
    A->set.scope = (ast_set_scope_t)S;
    A->set.name = pb_join_dotted(ctx, &D);
    A->set.values = V;
}
cmd(A) ::= SET(K) set_scope(S) dotted(D) TO|EQ DEFAULT. {
    A = pb_stmt(ctx, AST_STMT_SET, K.pos);
    A->set.scope = (ast_set_scope_t)S;
    A->set.name = pb_join_dotted(ctx, &D);
    A->set.is_default = 1;
}
cmd(A) ::= SET(K) set_scope(S) TIME ZONE set_value(V). {
    A = pb_stmt(ctx, AST_STMT_SET, K.pos);
    A->set.scope = (ast_set_scope_t)S;
    A->set.name = "timezone";
    PB_ADD(ctx, A->set.values, V);
}
cmd(A) ::= SET(K) set_scope(S) TIME ZONE DEFAULT|LOCAL. {
    A = pb_stmt(ctx, AST_STMT_SET, K.pos);
    A->set.scope = (ast_set_scope_t)S;
    A->set.name = "timezone";
    A->set.is_default = 1;
}

%type set_scope {int}
set_scope(A) ::= . { A = AST_SET_DEFAULT_SCOPE; }
set_scope(A) ::= SESSION. { A = AST_SET_SESSION; }
set_scope(A) ::= LOCAL. { A = AST_SET_LOCAL; }

%type set_values {ast_expr_list_t}
set_values(A) ::= set_value(V). { memset(&A, 0, sizeof A); PB_ADD(ctx, A, V); }
set_values(A) ::= set_values(A) COMMA set_value(V). { PB_ADD(ctx, A, V); }

/* Identifiers and ON become strings, as PostgreSQL's SET does. */
%type set_value {ast_expr_t *}
set_value(A) ::= STRING|ID|ON(T). { A = pb_literal(ctx, AST_LIT_STRING, &T); }
set_value(A) ::= INTEGER(T). { A = pb_literal(ctx, AST_LIT_INTEGER, &T); }
set_value(A) ::= FLOAT(T). { A = pb_literal(ctx, AST_LIT_NUMERIC, &T); }
set_value(A) ::= MINUS(M) INTEGER(T). { A = pb_unary(ctx, AST_OP_NEG, &M, pb_literal(ctx, AST_LIT_INTEGER, &T)); }
set_value(A) ::= MINUS(M) FLOAT(T). { A = pb_unary(ctx, AST_OP_NEG, &M, pb_literal(ctx, AST_LIT_NUMERIC, &T)); }
set_value(A) ::= TRUE|FALSE(T). { A = pb_literal(ctx, AST_LIT_BOOL, &T); }

cmd(A) ::= RESET(K) dotted(D). { A = pb_stmt(ctx, AST_STMT_RESET, K.pos); A->set.name = pb_join_dotted(ctx, &D); }
cmd(A) ::= RESET(K) ALL. { A = pb_stmt(ctx, AST_STMT_RESET, K.pos); A->set.name = "all"; }
cmd(A) ::= RESET(K) TIME ZONE. { A = pb_stmt(ctx, AST_STMT_RESET, K.pos); A->set.name = "timezone"; }
cmd(A) ::= DISCARD(K) ALL. { A = pb_stmt(ctx, AST_STMT_DISCARD, K.pos); A->set.name = "all"; }

/* ---- PREPARE / EXECUTE / DEALLOCATE ------------------------------------------ */
/* PostgreSQL's SQL-level prepared statements. PREPARE takes the statements
 * PostgreSQL can prepare (SELECT and VALUES, INSERT, DELETE); the prepared
 * text runs from the statement's first token to the end of the PREPARE. */

cmd(A) ::= PREPARE(K) ident(N) prep_types(T) AS prep_params(M) cmd(S). {
    A = pb_prepare(ctx, K.pos, N, &T, S);
    ctx->max_param = M;
}

/* The $n of the prepared statement are its own, not parameters of the
 * PREPARE: the count before it, restored after it. */
%type prep_params {int}
prep_params(A) ::= . { A = ctx->max_param; }

%type prep_types {ast_type_list_t}
prep_types(A) ::= . { memset(&A, 0, sizeof A); }
prep_types(A) ::= LP typelist(L) RP. { A = L; }

%type typelist {ast_type_list_t}
typelist(A) ::= typename(T). { memset(&A, 0, sizeof A); PB_ADD(ctx, A, T); }
typelist(A) ::= typelist(A) COMMA typename(T). { PB_ADD(ctx, A, T); }

cmd(A) ::= EXECUTE(K) ident(N). { A = pb_stmt(ctx, AST_STMT_EXECUTE, K.pos); A->prepared.name = N; }
cmd(A) ::= EXECUTE(K) ident(N) LP exprlist(L) RP. {
    A = pb_stmt(ctx, AST_STMT_EXECUTE, K.pos);
    A->prepared.name = N;
    A->prepared.args = L;
}

cmd(A) ::= DEALLOCATE(K) dealloc_target(N). { A = pb_stmt(ctx, AST_STMT_DEALLOCATE, K.pos); A->prepared.name = N; }
cmd(A) ::= DEALLOCATE(K) PREPARE dealloc_target(N). { A = pb_stmt(ctx, AST_STMT_DEALLOCATE, K.pos); A->prepared.name = N; }

/* A statement's name, or NULL for ALL. */
%type dealloc_target {ast_ident_t *}
dealloc_target(A) ::= ident(A).
dealloc_target(A) ::= ALL. { A = NULL; }

/* ---- COPY ------------------------------------------------------------------ */
/* PostgreSQL's COPY with both option syntaxes: the list in parentheses
 * (`(FORMAT csv, HEADER)`, any option name, checked by the statement) and
 * the old words (`CSV HEADER DELIMITER AS ','`), spelled here as the new
 * options. Which target and options a direction allows is the statement's
 * business (server/stmt_copy.c). */

cmd(A) ::= COPY(K) dotted(R) copy_cols(C) FROM copy_target(T) copy_opts(O). {
    A = pb_copy(ctx, &K, &R, NULL, 1, &T, O);
    A->copy.columns = C;
}
cmd(A) ::= COPY(K) dotted(R) copy_cols(C) TO copy_target(T) copy_opts(O). {
    A = pb_copy(ctx, &K, &R, NULL, 0, &T, O);
    A->copy.columns = C;
}
cmd(A) ::= COPY(K) LP select(Q) RP TO copy_target(T) copy_opts(O). {
    A = pb_copy(ctx, &K, NULL, Q, 0, &T, O);
}

%type copy_cols {ast_ident_list_t}
copy_cols(A) ::= . { memset(&A, 0, sizeof A); }
copy_cols(A) ::= LP identlist(L) RP. { A = L; }

%type copy_target {pb_copy_target_t}
copy_target(A) ::= STDIN|STDOUT(T). { A.kind = AST_COPY_CLIENT; A.file = NULL; A.pos = T.pos; }
copy_target(A) ::= STRING(T). { A.kind = AST_COPY_FILE; A.file = (char *)T.text; A.pos = T.pos; }
copy_target(A) ::= PROGRAM(K) STRING(T). { A.kind = AST_COPY_PROGRAM; A.file = (char *)T.text; A.pos = K.pos; }

%type copy_opts {ast_copy_opt_list_t}
copy_opts(A) ::= copy_with copy_olist(L). { A = L; }
copy_opts(A) ::= copy_with LP copy_glist(L) RP. { A = L; }
copy_with ::= .
copy_with ::= WITH.

/* The old words, one after another. */
%type copy_olist {ast_copy_opt_list_t}
copy_olist(A) ::= . { memset(&A, 0, sizeof A); }
copy_olist(A) ::= copy_olist(A) copy_oitem(I). { PB_ADD(ctx, A, I); }

%type copy_oitem {ast_copy_opt_t *}
copy_oitem(A) ::= ident(K). { A = pb_copy_old_word(ctx, K); }
copy_oitem(A) ::= ident(K) copy_as STRING(V). { A = pb_copy_opt(ctx, K->name, K->pos, &V); }
copy_oitem(A) ::= NULL(K) copy_as STRING(V). { A = pb_copy_opt(ctx, "null", K.pos, &V); }
copy_oitem(A) ::= FORCE(K) ident(W) STAR(S). {
    A = pb_copy_force(ctx, &K, W);
    A->star = 1;
    A->end = pb_tok_end(&S);
}
copy_oitem(A) ::= FORCE(K) ident(W) identlist(L). {
    A = pb_copy_force(ctx, &K, W);
    A->has_cols = 1;
    A->cols = L;
    A->end = ctx->prev_end;
}
copy_oitem(A) ::= FORCE(K) NOT NULL identlist(L). {
    A = pb_copy_opt(ctx, "force_not_null", K.pos, NULL);
    A->has_cols = 1;
    A->cols = L;
    A->end = ctx->prev_end;
}
copy_oitem(A) ::= FORCE(K) NULL identlist(L). {
    A = pb_copy_opt(ctx, "force_null", K.pos, NULL);
    A->has_cols = 1;
    A->cols = L;
    A->end = ctx->prev_end;
}
copy_as ::= .
copy_as ::= AS.

/* The list in parentheses: name [argument], ... */
%type copy_glist {ast_copy_opt_list_t}
copy_glist(A) ::= copy_gitem(I). { memset(&A, 0, sizeof A); PB_ADD(ctx, A, I); }
copy_glist(A) ::= copy_glist(A) COMMA copy_gitem(I). { PB_ADD(ctx, A, I); }

%type copy_gitem {ast_copy_opt_t *}
copy_gitem(A) ::= label(K). { A = pb_copy_opt(ctx, K->name, K->pos, NULL); A->end = K->end; }
copy_gitem(A) ::= label(K) STRING|INTEGER|FLOAT|TRUE|FALSE|ON(V). { A = pb_copy_opt(ctx, K->name, K->pos, &V); }
copy_gitem(A) ::= label(K) ident(V). {
    A = pb_copy_opt(ctx, K->name, K->pos, NULL);
    A->value = V->name;
    A->end = V->end;
}
copy_gitem(A) ::= label(K) STAR(S). { A = pb_copy_opt(ctx, K->name, K->pos, NULL); A->star = 1; A->end = pb_tok_end(&S); }
copy_gitem(A) ::= label(K) LP identlist(L) RP(R). {
    A = pb_copy_opt(ctx, K->name, K->pos, NULL);
    A->has_cols = 1;
    A->cols = L;
    A->end = pb_tok_end(&R);
}

/* ---- SELECT ---------------------------------------------------------------- */

cmd(A) ::= select(Q). { A = pb_stmt(ctx, AST_STMT_SELECT, Q->pos); A->select = Q; }

%type select {ast_select_t *}
select(A) ::= select_body(B) order_opt(O) limit_opt(L). {
    A = pb_select_tail(ctx, B, O, O.n ? O.items[0]->pos : 0, L, ctx->prev_end);
}
select(A) ::= WITH(K) ctelist(W) select_body(B) order_opt(O) limit_opt(L). {
    A = pb_select_tail(ctx, B, O, O.n ? O.items[0]->pos : 0, L, ctx->prev_end);
    A = pb_with(ctx, &K, W, A);
}

/* WITH name [(col, ...)] AS (select), ... */
%type ctelist {ast_cte_list_t}
ctelist(A) ::= cte(C). { memset(&A, 0, sizeof A); PB_ADD(ctx, A, C); }
ctelist(A) ::= ctelist(A) COMMA cte(C). { PB_ADD(ctx, A, C); }

%type cte {ast_cte_t *}
cte(A) ::= ident(N) AS subq(Q). { A = pb_cte(ctx, N, NULL, Q); }
cte(A) ::= ident(N) LP identlist(C) RP AS subq(Q). { A = pb_cte(ctx, N, &C, Q); }

/* A parenthesised select: a UNION arm, a CTE body or a subquery in an
 * expression (see SUBQ_SELECT above). */
%type subq {ast_select_t *}
subq(A) ::= LP(L) select(Q) RP(R). {
    A = Q;
    A->pos = L.pos;
    A->end = pb_tok_end(&R);
}

%type select_body {ast_select_t *}
select_body(A) ::= select_arm(A).
select_body(A) ::= select_body(L) UNION union_q(Q) select_arm(R). { A = pb_union(ctx, L, R, Q); }

%type union_q {int}
union_q(A) ::= . { A = 0; }
union_q(A) ::= ALL. { A = 1; }
union_q(A) ::= DISTINCT. { A = 0; }

%type select_arm {ast_select_t *}
select_arm(A) ::= select_core(A).
select_arm(A) ::= subq(A). [SUBQ_SELECT]

%type select_core {ast_select_t *}
select_core(A) ::= SELECT(K) distinct_opt(D) selitems(I) from_opt(F) where_opt(W) group_opt(G) having_opt(H) window_opt(N). {
    A = pb_select(ctx, AST_SELECT_SIMPLE, K.pos);
    A->distinct = D.kind;
    A->distinct_on = D.on;
    A->within_watermark = D.within;
    A->items = I;
    A->from = F;
    A->where = W;
    A->group_by = G;
    A->having = H;
    A->windows = N;
    A->end = ctx->prev_end;
}
select_core(A) ::= VALUES(K) rowlist(R). {
    A = pb_select(ctx, AST_SELECT_VALUES, K.pos);
    A->rows = R;
    A->end = ctx->prev_end;
}

%type rowlist {ast_row_list_t}
rowlist(A) ::= LP exprlist(L) RP. {
    memset(&A, 0, sizeof A);
    ast_expr_list_t *row = SL_NEW(ctx->a, ast_expr_list_t);
    *row = L;
    PB_ADD(ctx, A, row);
}
rowlist(A) ::= rowlist(A) COMMA LP exprlist(L) RP. {
    ast_expr_list_t *row = SL_NEW(ctx->a, ast_expr_list_t);
    *row = L;
    PB_ADD(ctx, A, row);
}

%type distinct_opt {pb_distinct_t}
distinct_opt(A) ::= . { memset(&A, 0, sizeof A); }
distinct_opt(A) ::= ALL. { memset(&A, 0, sizeof A); }
distinct_opt(A) ::= DISTINCT. { memset(&A, 0, sizeof A); A.kind = AST_DISTINCT_ALL; }
distinct_opt(A) ::= DISTINCT ON LP exprlist(L) RP within_opt(W). {
    A.kind = AST_DISTINCT_ON; A.on = L; A.within = W;
}
%type within_opt {int}
within_opt(A) ::= . { A = 0; }
within_opt(A) ::= WITHIN WATERMARK. { A = 1; }

%type selitems {ast_select_item_list_t}
selitems(A) ::= selitem(I). { memset(&A, 0, sizeof A); PB_ADD(ctx, A, I); }
selitems(A) ::= selitems(A) COMMA selitem(I). { PB_ADD(ctx, A, I); }

%type selitem {ast_select_item_t *}
selitem(A) ::= expr(E). {
    A = SL_NEW(ctx->a, ast_select_item_t); A->expr = E; A->pos = E->pos; A->end = E->end;
}
selitem(A) ::= expr(E) AS label(L). {
    A = SL_NEW(ctx->a, ast_select_item_t); A->expr = E; A->alias = L; A->pos = E->pos; A->end = L->end;
}
selitem(A) ::= expr(E) ident(L). {
    A = SL_NEW(ctx->a, ast_select_item_t); A->expr = E; A->alias = L; A->pos = E->pos; A->end = L->end;
}
selitem(A) ::= STAR(S). {
    A = SL_NEW(ctx->a, ast_select_item_t); A->star = 1; A->pos = S.pos; A->end = pb_tok_end(&S);
}
selitem(A) ::= dotted(Q) DOT STAR(S). {
    A = SL_NEW(ctx->a, ast_select_item_t); A->star = 1; A->qualifier = Q;
    A->pos = Q.items[0]->pos; A->end = pb_tok_end(&S);
}
/* (expr).*: one column per field of a struct (Spark's star over a struct) */
selitem(A) ::= fieldable(E) DOT STAR(S). {
    A = SL_NEW(ctx->a, ast_select_item_t); A->star = 1; A->expr = E;
    A->pos = E->pos; A->end = pb_tok_end(&S);
}

%type from_opt {ast_from_list_t}
from_opt(A) ::= . { memset(&A, 0, sizeof A); }
from_opt(A) ::= FROM fromlist(X). { A = X; }

%type fromlist {ast_from_list_t}
fromlist(A) ::= table_ref(T). { memset(&A, 0, sizeof A); PB_ADD(ctx, A, T); }
fromlist(A) ::= fromlist(A) COMMA table_ref(T). { PB_ADD(ctx, A, T); }

%type table_ref {ast_from_t *}
table_ref(A) ::= table_primary(A).
table_ref(A) ::= table_ref(L) join_type(J) JOIN table_primary(R) join_cond(C). {
    A = pb_from(ctx, AST_FROM_JOIN, L->pos, ctx->prev_end);
    A->join = (ast_join_t)J;
    A->left = L;
    A->right = R;
    A->on = C.on;
    A->using_cols = C.using_cols;
}
table_ref(A) ::= table_ref(L) NATURAL join_type(J) JOIN table_primary(R). {
    A = pb_from(ctx, AST_FROM_JOIN, L->pos, R->end);
    A->join = (ast_join_t)J;
    A->natural = 1;
    A->left = L;
    A->right = R;
}
table_ref(A) ::= table_ref(L) CROSS JOIN table_primary(R). {
    A = pb_from(ctx, AST_FROM_JOIN, L->pos, R->end);
    A->join = AST_JOIN_CROSS;
    A->left = L;
    A->right = R;
}

%type join_type {int}
join_type(A) ::= . { A = AST_JOIN_INNER; }
join_type(A) ::= INNER. { A = AST_JOIN_INNER; }
join_type(A) ::= LEFT outer_opt. { A = AST_JOIN_LEFT; }
join_type(A) ::= RIGHT outer_opt. { A = AST_JOIN_RIGHT; }
join_type(A) ::= FULL outer_opt. { A = AST_JOIN_FULL; }
outer_opt ::= .
outer_opt ::= OUTER.

%type join_cond {pb_joincond_t}
join_cond(A) ::= ON expr(E). { memset(&A, 0, sizeof A); A.on = E; }
join_cond(A) ::= USING LP identlist(L) RP. { memset(&A, 0, sizeof A); A.using_cols = L; }

%type table_primary {ast_from_t *}
table_primary(A) ::= ident(N) talias_opt(L) watermark_opt(W). {
    A = pb_from(ctx, AST_FROM_TABLE, N->pos, ctx->prev_end);
    A->name = N;
    A->alias = L.name;
    A->alias_cols = L.cols;
    A->watermark = W;
}
table_primary(A) ::= ident(S) DOT ident(N) talias_opt(L) watermark_opt(W). {
    A = pb_from(ctx, AST_FROM_TABLE, S->pos, ctx->prev_end);
    A->schema = S;
    A->name = N;
    A->alias = L.name;
    A->alias_cols = L.cols;
    A->watermark = W;
}
/* [schema.]f(args) [alias]: a set-returning function (bind_srf.c) */
table_primary(A) ::= ident(N) LP exprlist(X) RP talias_opt(L). { A = pb_from_function(ctx, NULL, N, X, &L); }
table_primary(A) ::= ident(S) DOT ident(N) LP exprlist(X) RP talias_opt(L). { A = pb_from_function(ctx, S, N, X, &L); }
table_primary(A) ::= LP(P) select(Q) RP talias(L) watermark_opt(W). {
    A = pb_from(ctx, AST_FROM_SUBQUERY, P.pos, ctx->prev_end);
    A->subquery = Q;
    A->alias = L.name;
    A->alias_cols = L.cols;
    A->watermark = W;
}
table_primary(A) ::= LP(P) table_ref(T) RP talias_opt(L). {
    A = T;
    A->pos = P.pos;
    A->end = ctx->prev_end;
    if (L.name) {
        A->alias = L.name;
        A->alias_cols = L.cols;
    }
}

/* A FROM item's alias with optional column names: `AS v (x, y)`. */
%type talias_opt {pb_alias_t}
talias_opt(A) ::= . { memset(&A, 0, sizeof A); }
talias_opt(A) ::= talias(A).

%type talias {pb_alias_t}
talias(A) ::= alias(N). { memset(&A, 0, sizeof A); A.name = N; }
talias(A) ::= alias(N) LP identlist(C) RP. { A.name = N; A.cols = C; }

%type alias {ast_ident_t *}
alias(A) ::= AS label(X). { A = X; }
alias(A) ::= ident(A).

%type where_opt {ast_expr_t *}
where_opt(A) ::= . { A = NULL; }
where_opt(A) ::= WHERE expr(X). { A = X; }

%type group_opt {ast_expr_list_t}
group_opt(A) ::= . { memset(&A, 0, sizeof A); }
group_opt(A) ::= GROUP BY exprlist(X). { A = X; }

/* WINDOW name AS (window), ...: windows the select list's OVER names */
%type window_opt {ast_window_def_list_t}
window_opt(A) ::= . { memset(&A, 0, sizeof A); }
window_opt(A) ::= WINDOW windefs(L). { A = L; }
%type windefs {ast_window_def_list_t}
windefs(A) ::= windef(D). { memset(&A, 0, sizeof A); PB_ADD(ctx, A, D); }
windefs(A) ::= windefs(A) COMMA windef(D). { PB_ADD(ctx, A, D); }
%type windef {ast_window_def_t *}
windef(A) ::= ident(N) AS LP(L) winspec(W) RP(R). { A = pb_window_def(ctx, N, W, &L, &R); }

%type having_opt {ast_expr_t *}
having_opt(A) ::= . { A = NULL; }
having_opt(A) ::= HAVING expr(X). { A = X; }

%type order_opt {ast_sort_list_t}
order_opt(A) ::= . { memset(&A, 0, sizeof A); }
order_opt(A) ::= ORDER BY sortlist(X). { A = X; }

%type sortlist {ast_sort_list_t}
sortlist(A) ::= sortitem(S). { memset(&A, 0, sizeof A); PB_ADD(ctx, A, S); }
sortlist(A) ::= sortlist(A) COMMA sortitem(S). { PB_ADD(ctx, A, S); }

%type sortitem {ast_sort_t *}
sortitem(A) ::= expr(E) sort_dir(D) nulls_opt(N). {
    A = SL_NEW(ctx->a, ast_sort_t);
    A->expr = E; A->desc = D; A->nulls = (ast_nulls_t)N;
    A->pos = E->pos; A->end = ctx->prev_end;
}
%type sort_dir {int}
sort_dir(A) ::= . { A = 0; }
sort_dir(A) ::= ASC. { A = 0; }
sort_dir(A) ::= DESC. { A = 1; }
%type nulls_opt {int}
nulls_opt(A) ::= . { A = AST_NULLS_DEFAULT; }
nulls_opt(A) ::= NULLS FIRST. { A = AST_NULLS_FIRST; }
nulls_opt(A) ::= NULLS LAST. { A = AST_NULLS_LAST; }

%type limit_opt {pb_limit_t}
limit_opt(A) ::= . { memset(&A, 0, sizeof A); }
limit_opt(A) ::= limit_clause(A).
limit_opt(A) ::= offset_clause(A).
limit_opt(A) ::= limit_clause(L) offset_clause(O). {
    A = L; A.offset = O.offset; A.has_offset = 1; A.offset_pos = O.offset_pos;
}
limit_opt(A) ::= offset_clause(O) limit_clause(L). {
    A = L; A.offset = O.offset; A.has_offset = 1; A.offset_pos = O.offset_pos;
}
%type limit_clause {pb_limit_t}
limit_clause(A) ::= LIMIT(K) expr(E). { memset(&A, 0, sizeof A); A.limit = E; A.has_limit = 1; A.limit_pos = K.pos; }
limit_clause(A) ::= LIMIT(K) ALL. { memset(&A, 0, sizeof A); A.has_limit = 1; A.limit_pos = K.pos; }
%type offset_clause {pb_limit_t}
offset_clause(A) ::= OFFSET(K) expr(E). { memset(&A, 0, sizeof A); A.offset = E; A.has_offset = 1; A.offset_pos = K.pos; }

/* ---- expressions ------------------------------------------------------------ */

%type exprlist {ast_expr_list_t}
exprlist(A) ::= expr(E). { memset(&A, 0, sizeof A); PB_ADD(ctx, A, E); }
exprlist(A) ::= exprlist(A) COMMA expr(E). { PB_ADD(ctx, A, E); }

%type expr {ast_expr_t *}
expr(A) ::= primary(A).
expr(A) ::= expr(L) OR expr(R). { A = pb_binary(ctx, AST_OP_OR, L, R); }
expr(A) ::= expr(L) AND expr(R). { A = pb_binary(ctx, AST_OP_AND, L, R); }
expr(A) ::= NOT(K) expr(E). { A = pb_unary(ctx, AST_OP_NOT, &K, E); }
expr(A) ::= expr(L) EQ expr(R). { A = pb_binary(ctx, AST_OP_EQ, L, R); }
expr(A) ::= expr(L) NE expr(R). { A = pb_binary(ctx, AST_OP_NE, L, R); }
expr(A) ::= expr(L) LT expr(R). { A = pb_binary(ctx, AST_OP_LT, L, R); }
expr(A) ::= expr(L) LE expr(R). { A = pb_binary(ctx, AST_OP_LE, L, R); }
expr(A) ::= expr(L) GT expr(R). { A = pb_binary(ctx, AST_OP_GT, L, R); }
expr(A) ::= expr(L) GE expr(R). { A = pb_binary(ctx, AST_OP_GE, L, R); }
expr(A) ::= expr(L) CONCAT expr(R). { A = pb_binary(ctx, AST_OP_CONCAT, L, R); }
expr(A) ::= expr(L) PLUS expr(R). { A = pb_binary(ctx, AST_OP_ADD, L, R); }
expr(A) ::= expr(L) MINUS expr(R). { A = pb_binary(ctx, AST_OP_SUB, L, R); }
expr(A) ::= expr(L) STAR expr(R). { A = pb_binary(ctx, AST_OP_MUL, L, R); }
expr(A) ::= expr(L) SLASH expr(R). { A = pb_binary(ctx, AST_OP_DIV, L, R); }
expr(A) ::= expr(L) PERCENT expr(R). { A = pb_binary(ctx, AST_OP_MOD, L, R); }
expr(A) ::= MINUS(K) expr(E). [UMINUS] { A = pb_unary(ctx, AST_OP_NEG, &K, E); }
expr(A) ::= PLUS(K) expr(E). [UMINUS] { A = pb_unary(ctx, AST_OP_PLUS, &K, E); }
expr(A) ::= expr(E) IS NULL(T). { A = pb_is(ctx, E, AST_IS_NULL, 0, &T); }
expr(A) ::= expr(E) IS NOT NULL(T). { A = pb_is(ctx, E, AST_IS_NULL, 1, &T); }
expr(A) ::= expr(E) IS TRUE(T). { A = pb_is(ctx, E, AST_IS_TRUE, 0, &T); }
expr(A) ::= expr(E) IS NOT TRUE(T). { A = pb_is(ctx, E, AST_IS_TRUE, 1, &T); }
expr(A) ::= expr(E) IS FALSE(T). { A = pb_is(ctx, E, AST_IS_FALSE, 0, &T); }
expr(A) ::= expr(E) IS NOT FALSE(T). { A = pb_is(ctx, E, AST_IS_FALSE, 1, &T); }
expr(A) ::= expr(L) IS DISTINCT FROM expr(R). [IS] { A = pb_binary(ctx, AST_OP_IS_DISTINCT, L, R); }
expr(A) ::= expr(L) IS NOT DISTINCT FROM expr(R). [IS] { A = pb_binary(ctx, AST_OP_IS_NOT_DISTINCT, L, R); }
expr(A) ::= expr(E) IN LP exprlist(L) RP(T). { A = pb_in(ctx, E, L, 0, &T); }
expr(A) ::= expr(E) NOT_LA IN LP exprlist(L) RP(T). [NOT_LA] { A = pb_in(ctx, E, L, 1, &T); }
expr(A) ::= expr(E) BETWEEN expr(L) AND expr(H). [BETWEEN] { A = pb_between(ctx, E, L, H, 0); }
expr(A) ::= expr(E) NOT_LA BETWEEN expr(L) AND expr(H). [NOT_LA] { A = pb_between(ctx, E, L, H, 1); }
expr(A) ::= expr(E) IN subq(Q). { A = pb_in_query(ctx, E, Q, 0); }
expr(A) ::= expr(E) NOT_LA IN subq(Q). [NOT_LA] { A = pb_in_query(ctx, E, Q, 1); }
expr(A) ::= expr(E) LIKE expr(P). { A = pb_like(ctx, E, P, NULL, 0, 0); }
expr(A) ::= expr(E) NOT_LA LIKE expr(P). [NOT_LA] { A = pb_like(ctx, E, P, NULL, 1, 0); }
expr(A) ::= expr(E) ILIKE expr(P). { A = pb_like(ctx, E, P, NULL, 0, 1); }
expr(A) ::= expr(E) NOT_LA ILIKE expr(P). [NOT_LA] { A = pb_like(ctx, E, P, NULL, 1, 1); }
expr(A) ::= expr(E) LIKE expr(P) ESCAPE expr(C). [LIKE] { A = pb_like(ctx, E, P, C, 0, 0); }
expr(A) ::= expr(E) NOT_LA LIKE expr(P) ESCAPE expr(C). [NOT_LA] { A = pb_like(ctx, E, P, C, 1, 0); }
expr(A) ::= expr(E) ILIKE expr(P) ESCAPE expr(C). [LIKE] { A = pb_like(ctx, E, P, C, 0, 1); }
expr(A) ::= expr(E) NOT_LA ILIKE expr(P) ESCAPE expr(C). [NOT_LA] { A = pb_like(ctx, E, P, C, 1, 1); }
expr(A) ::= expr(E) TYPECAST typename(T). { A = pb_cast(ctx, E, T, 1, E->pos, T->end); }

/* ---- PostgreSQL catalog-query syntax (parser/ast_pg.c) ----
 * The regular expression matches (~ ~* !~ !~*: one REGEX token), spelled
 * as operators or as OPERATOR(pg_catalog.~), the precedence of PostgreSQL's
 * other operators; and expr COLLATE name. */
expr(A) ::= expr(L) REGEX(O) expr(R). { A = pb_regex(ctx, NULL, &O, L, R); }
expr(A) ::= expr(L) OPERATOR LP REGEX(O) RP expr(R). [REGEX] { A = pb_regex(ctx, NULL, &O, L, R); }
expr(A) ::= expr(L) OPERATOR LP ident(S) DOT REGEX(O) RP expr(R). [REGEX] { A = pb_regex(ctx, S, &O, L, R); }
expr(A) ::= expr(E) COLLATE dotted(N). { A = pb_collate(ctx, E, N); }
/* x = ANY (SELECT ...) is x IN (SELECT ...); x = ANY (array) tests membership */
expr(A) ::= expr(E) EQ ANY subq(Q). { A = pb_in_query(ctx, E, Q, 0); }
expr(A) ::= expr(E) EQ ANY LP expr(R) RP(T). { A = pb_any(ctx, E, R, &T); }
primary(A) ::= ARRAY(K) subq(Q). { A = pb_subquery(ctx, AST_EXPR_ARRAY, &K, Q); }
/* f(...) [FILTER (WHERE ...)] OVER ([w] [PARTITION BY ...] [ORDER BY ...] [frame]) or OVER w:
 * a window function call */
primary(A) ::= func(F) OVER LP(L) winspec(W) RP(R). { A = pb_over(ctx, F, W, &L, &R); }
primary(A) ::= func(F) OVER ident(N). { A = pb_over_name(ctx, F, N); }
primary(A) ::= func(F) FILTER LP WHERE expr(E) RP(R). { A = pb_filter(ctx, F, E, &R); }
primary(A) ::= func(F) FILTER LP WHERE expr(E) RP(Q) OVER LP(L) winspec(W) RP(R). {
    A = pb_over(ctx, pb_filter(ctx, F, E, &Q), W, &L, &R);
}
primary(A) ::= func(F) FILTER LP WHERE expr(E) RP(Q) OVER ident(N). {
    A = pb_over_name(ctx, pb_filter(ctx, F, E, &Q), N);
}
/* A window's parts, each clause starting with its keyword (no empty
 * partition or order list before a frame), so that after '(' ROWS and RANGE
 * are shifted as keywords, never taken as a window name by %fallback. */
%type winspec {ast_window_t *}
winspec(A) ::= wparts(A).
winspec(A) ::= ident(N) wparts(W). { A = W; A->ref = N; }
%type wparts {ast_window_t *}
wparts(A) ::= frame_opt(W). { ast_expr_list_t p = {0, NULL}; ast_sort_list_t o = {0, NULL}; A = pb_window(ctx, NULL, p, o, &W); }
wparts(A) ::= ORDER BY sortlist(O) frame_opt(W). { ast_expr_list_t p = {0, NULL}; A = pb_window(ctx, NULL, p, O, &W); }
wparts(A) ::= PARTITION BY exprlist(P) order_opt(O) frame_opt(W). { A = pb_window(ctx, NULL, P, O, &W); }
/* [ROWS | RANGE] [BETWEEN] bound [AND bound]: the window frame */
%type frame_opt {ast_frame_t}
frame_opt(A) ::= . { memset(&A, 0, sizeof A); }
frame_opt(A) ::= frame_unit(U) frame_bound(S). { A = U; A.start = S; A.end.kind = AST_BOUND_CURRENT_ROW; }
frame_opt(A) ::= frame_unit(U) BETWEEN frame_bound(S) AND frame_bound(E). { A = U; A.start = S; A.end = E; }
%type frame_unit {ast_frame_t}
frame_unit(A) ::= ROWS(T). { memset(&A, 0, sizeof A); A.unit = AST_FRAME_ROWS; A.pos = T.pos; }
frame_unit(A) ::= RANGE(T). { memset(&A, 0, sizeof A); A.unit = AST_FRAME_RANGE; A.pos = T.pos; }
%type frame_bound {ast_frame_bound_t}
frame_bound(A) ::= UNBOUNDED PRECEDING. { A.kind = AST_BOUND_UNBOUNDED_PRECEDING; A.offset = NULL; }
frame_bound(A) ::= UNBOUNDED FOLLOWING. { A.kind = AST_BOUND_UNBOUNDED_FOLLOWING; A.offset = NULL; }
frame_bound(A) ::= CURRENT ROW. { A.kind = AST_BOUND_CURRENT_ROW; A.offset = NULL; }
frame_bound(A) ::= expr(E) PRECEDING. { A.kind = AST_BOUND_PRECEDING; A.offset = E; }
frame_bound(A) ::= expr(E) FOLLOWING. { A.kind = AST_BOUND_FOLLOWING; A.offset = E; }
/* a[i]: an element of an array (or vector) column, element_at(a, i) */
primary(A) ::= dotted(D) LBRACKET expr(I) RBRACKET(R). { A = pb_subscript(ctx, pb_column(ctx, D), I, &R); }
primary(A) ::= fieldable(E) LBRACKET expr(I) RBRACKET(R). { A = pb_subscript(ctx, E, I, &R); }

%type primary {ast_expr_t *}
primary(A) ::= INTEGER(T). { A = pb_literal(ctx, AST_LIT_INTEGER, &T); }
primary(A) ::= FLOAT(T). { A = pb_literal(ctx, AST_LIT_NUMERIC, &T); }
primary(A) ::= STRING(T). { A = pb_literal(ctx, AST_LIT_STRING, &T); }
primary(A) ::= TRUE|FALSE(T). { A = pb_literal(ctx, AST_LIT_BOOL, &T); }
primary(A) ::= NULL(T). { A = pb_literal(ctx, AST_LIT_NULL, &T); }
primary(A) ::= TIMESTAMP(K) STRING(V). { A = pb_typed_literal(ctx, AST_LIT_TIMESTAMP, &K, &V, NULL); }
primary(A) ::= DATE(K) STRING(V). { A = pb_typed_literal(ctx, AST_LIT_DATE, &K, &V, NULL); }
/* PostgreSQL's `type 'string'` (bytea '\x00', int4 '5'): a cast of the string. */
primary(A) ::= ident(I) STRING(V). {
    A = pb_cast(ctx, pb_literal(ctx, AST_LIT_STRING, &V), pb_type(ctx, I->name, I->quoted, I->pos, I->end), 0,
                I->pos, pb_tok_end(&V));
}
primary(A) ::= interval_lit(A).
primary(A) ::= PARAM(T). { A = pb_param(ctx, &T); }
primary(A) ::= dotted(D). { A = pb_column(ctx, D); }
primary(A) ::= fieldable(A).
primary(A) ::= CAST(K) LP expr(E) AS typename(T) RP(R). { A = pb_cast(ctx, E, T, 0, K.pos, pb_tok_end(&R)); }
primary(A) ::= CASE(K) case_arg(E) whenlist(W) else_opt(L) END(R). { A = pb_case(ctx, &K, E, W, L, &R); }
primary(A) ::= subq(Q). [SUBQ_EXPR] { A = pb_subquery(ctx, AST_EXPR_SUBQUERY, NULL, Q); }
primary(A) ::= EXISTS(K) subq(Q). { A = pb_subquery(ctx, AST_EXPR_EXISTS, &K, Q); }

/* Things a .field can follow: (expr), f(...), and such a field itself. */
%type fieldable {ast_expr_t *}
fieldable(A) ::= LP(L) expr(E) RP(R). { A = pb_paren(E, &L, &R); }
fieldable(A) ::= func(A).
fieldable(A) ::= fieldable(E) DOT ident(F). { A = pb_field(ctx, E, F); }

/* f(...) or schema.f(...): the name is the last part of `dotted`. */
%type func {ast_expr_t *}
func(A) ::= dotted(N) LP RP(R). { ast_expr_list_t none = {0, NULL}; A = pb_func(ctx, N, none, 0, 0, &R); }
func(A) ::= dotted(N) LP STAR RP(R). { ast_expr_list_t none = {0, NULL}; A = pb_func(ctx, N, none, 0, 1, &R); }
func(A) ::= dotted(N) LP funcargs(L) RP(R). { A = pb_func_args(ctx, N, L, &R); }

/* Arguments that may be named: struct(x AS name, ...), as in Spark's
 * grammar (pb_func_args refuses a name in any other function). */
%type funcargs {ast_expr_list_t}
funcargs(A) ::= funcarg(E). { memset(&A, 0, sizeof A); PB_ADD(ctx, A, E); }
funcargs(A) ::= funcargs(A) COMMA funcarg(E). { PB_ADD(ctx, A, E); }
%type funcarg {ast_expr_t *}
funcarg(A) ::= expr(A).
funcarg(A) ::= expr(E) AS(K) label(L). { A = E; A->alias = L; A->alias_at = K.pos; }
func(A) ::= dotted(N) LP ALL exprlist(L) RP(R). { A = pb_func(ctx, N, L, 0, 0, &R); }
func(A) ::= dotted(N) LP DISTINCT exprlist(L) RP(R). { A = pb_func(ctx, N, L, 1, 0, &R); }

/* SQL's keyword-separated argument forms (parser/ast_special.c checks the
 * function name): substring(s FROM a [FOR b]), extract(field FROM x),
 * trim([BOTH | LEADING | TRAILING] [chars] FROM s), position(a IN b) (the
 * tokenizer marks that IN as POS_IN). */
func(A) ::= dotted(N) LP expr(S) FROM(K) expr(F) RP(R). { A = pb_func_from(ctx, N, S, &K, F, NULL, NULL, &R); }
func(A) ::= dotted(N) LP expr(S) FROM(K) expr(F) FOR(L) expr(C) RP(R). {
    A = pb_func_from(ctx, N, S, &K, F, &L, C, &R);
}
func(A) ::= dotted(N) LP trim_side(W) FROM expr(S) RP(R). { A = pb_func_trim(ctx, N, &W, NULL, S, &R); }
func(A) ::= dotted(N) LP trim_side(W) expr(C) FROM expr(S) RP(R). { A = pb_func_trim(ctx, N, &W, C, S, &R); }
func(A) ::= dotted(N) LP expr(S) POS_IN expr(F) RP(R). { A = pb_func_position(ctx, N, S, F, &R); }

%type trim_side {parse_token_t}
trim_side(A) ::= BOTH|LEADING|TRAILING(A).

%type case_arg {ast_expr_t *}
case_arg(A) ::= . { A = NULL; }
case_arg(A) ::= expr(A).

%type whenlist {ast_when_list_t}
whenlist(A) ::= when(W). { memset(&A, 0, sizeof A); PB_ADD(ctx, A, W); }
whenlist(A) ::= whenlist(A) when(W). { PB_ADD(ctx, A, W); }

%type when {ast_when_t *}
when(A) ::= WHEN(K) expr(C) THEN expr(R). {
    A = SL_NEW(ctx->a, ast_when_t); A->cond = C; A->result = R; A->pos = K.pos; A->end = R->end;
}

%type else_opt {ast_expr_t *}
else_opt(A) ::= . { A = NULL; }
else_opt(A) ::= ELSE expr(X). { A = X; }
