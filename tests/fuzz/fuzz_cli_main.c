/* fuzz_cli_main.c - cli/main.c with its main() renamed tn_cli_main, for fuzz_cli. */
#define main tn_cli_main
#include "main.c"
