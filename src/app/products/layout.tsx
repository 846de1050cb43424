import { Illustration } from '@/components/ui/illustration';
import bannerIllustration from '@/content/illustrations/product-banner.svg';
import { site } from '@/content/site';
import { products } from '@/content/products';
import { ProductTabs } from './product-tabs';

/**
 * Shared by `/products` and `/products/{id}` (spec §2, product page): the banner, then the nine
 * tabs beside (from 968 px) or above the server-rendered panel of the selected module.
 */
export default function ProductsLayout({ children }: { children: React.ReactNode }) {
  return (
    <>
      <section aria-labelledby="products-heading" className="relative overflow-hidden bg-surface">
        <Illustration
          image={bannerIllustration}
          alt=""
          className="absolute inset-0 hidden h-full w-full object-cover object-right lg:block"
        />
        <div className="relative mx-auto max-w-page px-2 py-5 sm:px-3 md:py-7">
          <p className="text-sm font-semibold tracking-wide text-brand-800 uppercase">
            {site.product}
          </p>
          <h1 id="products-heading" className="mt-1 max-w-2xl text-4xl sm:text-5xl">
            {products.heading}
          </h1>
          <p className="mt-1.5 max-w-xl text-lg text-slate-700">{products.lead}</p>
        </div>
      </section>
      <div className="mx-auto grid max-w-page gap-3 px-2 py-4 sm:px-3 tabs:grid-cols-[16rem_1fr] tabs:gap-5 tabs:py-6">
        <ProductTabs />
        {children}
      </div>
    </>
  );
}
