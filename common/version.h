/* The version of sluice, and the PostgreSQL version it reports to clients
 * (drivers parse the leading "15.0"). One place for both. */
#ifndef SL_VERSION_H
#define SL_VERSION_H

#define SL_VERSION "0.1.0"
#define SL_PG_SERVER_VERSION "15.0 (sluice " SL_VERSION ")"
#define SL_PG_SERVER_VERSION_NUM "150000"

#endif
