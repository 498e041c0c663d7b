package io.quotient.app;

public final class QuotientCli {
    public static void main(String[] args) {
        System.out.println("quotient");
    }
}
