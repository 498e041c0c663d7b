package io.quotient.adapters.rest;

/**
 * Checks a byte stream, fed in pieces, against UTF-8 as RFC 3629 defines it: no overlong forms ({@code C0 AF} for
 * '/'), no surrogates ({@code ED A0 80}), nothing past U+10FFFF, no continuation byte without a lead and no lead
 * without its continuations. One per stream; not thread-safe.
 */
final class Utf8Checker {

    private int continuations;
    private int lowest = 0x80;
    private int highest = 0xBF;
    private long position;

    /**
     * Checks the next bytes and returns the offset (counted from the stream's first byte) of the first one that
     * breaks UTF-8, or -1 if all of them may stand where they are.
     */
    long check(byte[] bytes, int offset, int length) {
        for (int i = offset; i < offset + length; i++, position++) {
            if (!accept(bytes[i] & 0xFF)) {
                return position;
            }
        }
        return -1;
    }

    /** Whether the stream ended in the middle of a character; its offset is then {@link #position()}. */
    boolean endsInsideACharacter() {
        return continuations > 0;
    }

    /** The number of bytes checked so far. */
    long position() {
        return position;
    }

    private boolean accept(int b) {
        if (continuations > 0) {
            if (b < lowest || b > highest) {
                return false;
            }
            continuations--;
            lowest = 0x80;
            highest = 0xBF;
            return true;
        }
        if (b < 0x80) {
            return true;
        }
        // the lead byte says how many continuations follow and narrows the first one's range (RFC 3629, section 4)
        if (b >= 0xC2 && b <= 0xDF) {
            continuations = 1;
        } else if (b >= 0xE0 && b <= 0xEF) {
            continuations = 2;
            lowest = b == 0xE0 ? 0xA0 : 0x80;
            highest = b == 0xED ? 0x9F : 0xBF;
        } else if (b >= 0xF0 && b <= 0xF4) {
            continuations = 3;
            lowest = b == 0xF0 ? 0x90 : 0x80;
            highest = b == 0xF4 ? 0x8F : 0xBF;
        } else {
            return false;
        }
        return true;
    }
}
