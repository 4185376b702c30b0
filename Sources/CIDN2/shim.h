// Brings libidn2's public header into Swift as the `CIDN2` module. Only `MonitorCore`'s domain-name normalization
// imports it, `internal`, so no libidn2 type appears in a public signature.
#include <idn2.h>
