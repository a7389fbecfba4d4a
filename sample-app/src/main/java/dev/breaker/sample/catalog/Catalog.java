package dev.breaker.sample.catalog;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.stereotype.Component;

/** The shop's products, held in memory. */
@Component
public class Catalog {

	private static final String[] NAMES = { "Espresso beans", "Pour-over kettle", "Burr grinder", "Ceramic dripper",
			"Paper filters", "Milk frother", "Travel mug", "Tasting cups", "Scale", "Cold-brew jar", "Tamper",
			"Knock box", "Cleaning tablets", "Decaf beans", "Moka pot", "French press", "Aeropress", "Filter holder",
			"Barista apron", "Latte-art pitcher", "Bean canister", "Descaler", "Gift card", "Cupping spoon" };

	private final Map<String, Product> products = new LinkedHashMap<>();

	public Catalog() {
		for (int i = 0; i < NAMES.length; i++) {
			String sku = "sku-" + (i + 1);
			this.products.put(sku, new Product(sku, NAMES[i], 450 + 125L * i));
		}
	}

	public List<Product> products() {
		return Collections.unmodifiableList(new ArrayList<>(this.products.values()));
	}

	public Optional<Product> find(String sku) {
		return Optional.ofNullable(this.products.get(sku));
	}

	/** The products for these SKUs, in order, skipping unknown ones. */
	public List<Product> findAll(List<String> skus) {
		return skus.stream().map(this.products::get).filter(java.util.Objects::nonNull).toList();
	}

}
