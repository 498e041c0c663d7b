/** Time that a simulation or a test moves itself, with no dependency on the rest of Quotient. */
package io.quotient.time;
